// Worker-thread entry: loads one model (workerData.model) once, then answers {id, pixels} messages
// with the model's raw output. Messages are handled one at a time: tfjs-wasm is single-threaded.
import { parentPort, workerData } from 'node:worker_threads';
import { CenterNet, MobileNet, type VisionModelName } from './models.js';

const port = parentPort!;
const { model: name, options } = workerData as { model: VisionModelName; options?: { flipAveraging?: boolean } };
const started = performance.now();
try {
  const net = name === 'centernet' ? await CenterNet.load(options?.flipAveraging ?? true) : await MobileNet.load();
  port.on('message', (m: { id: number; pixels: Uint8Array }) => {
    const t0 = performance.now();
    net.run(m.pixels).then(
      (result) => port.postMessage({ id: m.id, ok: true, result, ms: performance.now() - t0 }),
      (e: Error) => port.postMessage({ id: m.id, ok: false, error: e.message }),
    );
  });
  port.postMessage({ ready: true, loadMs: Math.round(performance.now() - started) });
} catch (e) {
  port.postMessage({ ready: false, error: (e as Error).message });
}
