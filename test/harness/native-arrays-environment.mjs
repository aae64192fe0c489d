// A jest environment whose typed arrays are Node's own: onnxruntime-node creates output tensors in
// the main realm, and onnxruntime-common's `instanceof Float32Array` check fails against the test
// sandbox's copies otherwise. Used by tests that run ONNX models in-process (@jest-environment).
import { TestEnvironment } from 'jest-environment-node';

export default class NativeArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['Float32Array', 'Float64Array', 'Int8Array', 'Uint8Array', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array', 'ArrayBuffer']) {
      this.global[name] = globalThis[name];
    }
  }
}
