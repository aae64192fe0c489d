// Worker-thread entry: loads the text models once, then answers {id, op, args} messages.
import { parentPort } from 'node:worker_threads';
import { TextModels, type TextOp } from './text-models.js';

const port = parentPort!;
try {
  const models = await TextModels.load();
  port.on('message', (m: { id: number; op: TextOp; args: never }) => {
    try {
      port.postMessage({ id: m.id, ok: true, result: models.run(m.op, m.args) });
    } catch (e) {
      port.postMessage({ id: m.id, ok: false, error: (e as Error).message });
    }
  });
  port.postMessage({ ready: true, loadMs: models.loadMs });
} catch (e) {
  port.postMessage({ ready: false, error: (e as Error).message });
}
