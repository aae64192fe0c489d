// Worker-thread entry: loads one model (workerData.model) once, then answers {id, pixels, options}
// messages with the model's raw output (CenterNet's options: flipAveraging). Messages are handled one
// at a time: tfjs-wasm is single-threaded.
import { parentPort, workerData } from 'node:worker_threads';
import { CenterNet, MobileNet, type VisionModelName } from './models.js';

const port = parentPort!;
const { model: name } = workerData as { model: VisionModelName };

interface Message {
  id: number;
  pixels: Uint8Array;
  options?: { flipAveraging?: boolean };
}
const started = performance.now();
try {
  const net = name === 'centernet' ? await CenterNet.load() : await MobileNet.load();
  const run = (m: Message) => (net instanceof CenterNet ? net.run(m.pixels, m.options?.flipAveraging ?? true) : net.run(m.pixels));
  port.on('message', (m: Message) => {
    const t0 = performance.now();
    run(m).then(
      (result) => port.postMessage({ id: m.id, ok: true, result, ms: performance.now() - t0 }),
      (e: Error) => port.postMessage({ id: m.id, ok: false, error: e.message }),
    );
  });
  port.postMessage({ ready: true, loadMs: Math.round(performance.now() - started) });
} catch (e) {
  port.postMessage({ ready: false, error: (e as Error).message });
}
