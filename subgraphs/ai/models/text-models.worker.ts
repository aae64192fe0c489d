// Worker-thread entry: answers {id, op, args} messages, each model loading on the first operation
// that needs it (text-models.ts); workerData.preload loads them all first (AI_PRELOAD=1).
import { parentPort, workerData } from 'node:worker_threads';
import { TextModels, type TextOp } from './text-models.js';

const port = parentPort!;
const models = new TextModels((name, ms) => port.postMessage({ loaded: name, ms }));
port.on('message', (m: { id: number; op: TextOp; args: never }) => {
  models.run(m.op, m.args).then(
    (result) => port.postMessage({ id: m.id, ok: true, result }),
    (e: Error) => port.postMessage({ id: m.id, ok: false, error: e.message }),
  );
});
try {
  if ((workerData as { preload?: boolean } | null)?.preload) await models.loadAll();
  port.postMessage({ ready: true });
} catch (e) {
  port.postMessage({ ready: false, error: (e as Error).message });
}
