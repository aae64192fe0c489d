// The moderation classifier is trained once and read afterwards (lib/derived-model-cache.ts,
// subgraphs/ai/models/moderation.classifier.ts): the file is keyed by what the model derives from.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivationKey, derivedModel } from '../../../lib/derived-model-cache.js';
import { moderationClassifier, moderationClassifierKey } from '../../../subgraphs/ai/models/moderation.classifier.js';
import { readTrainingSet } from '../../../subgraphs/ai/models/moderation.js';
import { predict } from '../../../subgraphs/ai/models/softmax.model.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'derived-'));
  process.env.DERIVED_MODELS_DIR = dir;
});
afterEach(() => {
  delete process.env.DERIVED_MODELS_DIR;
  rmSync(dir, { recursive: true, force: true });
});

test('derived once, then read from its file; another input is another key', async () => {
  let runs = 0;
  const derive = async () => ({ n: ++runs });
  const first = await derivedModel('thing', derivationKey(['a']), derive, dir);
  const again = await derivedModel('thing', derivationKey(['a']), derive, dir);
  const other = await derivedModel('thing', derivationKey(['b']), derive, dir);
  expect([first.cached, again.cached, other.cached]).toEqual([false, true, false]);
  expect(again.value).toEqual({ n: 1 });
  expect(other.value).toEqual({ n: 2 });
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});

test('an unwritable folder still answers the derived model (derived at each start)', async () => {
  // a folder under a file: it can never be made
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  const r = await derivedModel('thing', 'k', async () => 42, join(file, 'models'));
  expect(r).toMatchObject({ value: 42, cached: false });
  expect(r.writeError).toBeTruthy();
});

test('the moderation classifier: trained on the first load, the same weights read on the next; the key follows the texts', async () => {
  const labels = ['none', 'spam'];
  const examples = readTrainingSet().filter((e) => e.label === 'none' || e.label === 'spam').slice(0, 40);
  const trained = await moderationClassifier(examples, labels);
  expect(trained.cached).toBe(false);
  expect(existsSync(trained.file)).toBe(true);
  const read = await moderationClassifier(examples, labels);
  expect(read.cached).toBe(true);
  expect(read.value).toEqual(trained.value);
  expect(predict(read.value, 'Buy cheap pills now, click here!!!')).toEqual(predict(trained.value, 'Buy cheap pills now, click here!!!'));
  // one text changed (a hand edit of the training set): another key, trained anew
  const edited = [{ ...examples[0], text: `${examples[0].text} (edited)` }, ...examples.slice(1)];
  expect(moderationClassifierKey(edited, labels)).not.toBe(moderationClassifierKey(examples, labels));
  expect((await moderationClassifier(edited, labels)).cached).toBe(false);
});
