// Translation through persistent Apertium pipelines (subgraphs/ai/models/apertium.pool.ts) answers
// exactly what `apertium <mode> file` (a fresh pipeline per call, as the engine did before) prints,
// for every installed pair, on texts with paragraphs, unknown words, Apertium's special characters
// and repeated calls; a crashed pipeline is replaced, a call over its deadline fails, and calls at
// once on one pair (more than its pipelines) all answer right. Skipped where Apertium is absent.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Apertium, type LanguagePair } from '../../../subgraphs/ai/models/apertium.js';
import { PairPool } from '../../../subgraphs/ai/models/apertium.pool.js';

const run = promisify(execFile);

const TEXTS: Record<string, string[]> = {
  en: [
    'Hello world.',
    'The cat is on the table. My father was an engineer at Boeing in Seattle, and he took me to the factory in June 1998.',
    'First paragraph here.\n\nSecond paragraph,  with two spaces\tand a tab.\nA new line without a stop',
    'Brackets [like this], a caret ^ and dollar $, at @ sign, slash / and back\\slash, <angle> {curly} *star #hash ~tilde | bar.',
    'Zorblax frobnicated the quuxes!   Trailing spaces   ',
    'Good engineering is patient, curious and a little stubborn. '.repeat(20),
  ],
  es: ['El gato está en la mesa. Mañana iremos a la playa con mis amigos.', 'Línea uno.\n\nLínea dos: ¿qué tal? ¡Muy bien!'],
  fr: ['Le chat est sur la table. Nous irons à la plage demain.', "Aujourd'hui,  il fait beau.\n\nC'est vrai."],
  ca: ['El gat és a la taula.'],
};

async function byScript(pair: LanguagePair, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'apertium-ref-'));
  try {
    const file = join(dir, 'in.txt');
    await writeFile(file, text, 'utf8');
    return (await run('apertium', [pair.mode, file], { timeout: 30_000 })).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the engine did with the script's output before (the marks and trailing blanks removed). */
function cleaned(stdout: string): string {
  return stdout.replace(/(?<![\p{L}\p{N}])[*#@](?=[\p{L}\p{N}])/gu, '').replace(/[ \t]+\n/g, '\n').trimEnd();
}

let engine: Apertium;
beforeAll(async () => {
  engine = await Apertium.discover({ max: 2, idleMs: 60_000, timeoutMs: 30_000, cpuSplit: 'auto' });
});
afterAll(() => engine.stop());

const installed = () => engine.pairs.length > 0;

test('every installed pair answers what apertium <mode> prints, call after call on the same pipelines', async () => {
  if (!installed()) return console.warn('no Apertium pair installed: skipped');
  let compared = 0;
  for (const pair of engine.pairs) {
    for (const text of TEXTS[pair.source] ?? []) {
      const expected = cleaned(await byScript(pair, text));
      for (let i = 0; i < 2; i++) expect((await engine.translate(pair, text)).translated_text).toBe(expected);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(0);
  expect(Object.values(engine.running()).every((n) => n >= 1 && n <= 2)).toBe(true);
}, 180_000);

test('calls at once on one pair share its two pipelines and each gets its own answer', async () => {
  const pair = engine.find('en', 'es');
  if (!pair) return console.warn('no en-es pair: skipped');
  const texts = ['One dog.', 'Two cats.', 'Three houses.', 'Four red cars.', 'Five green trees.', 'Six old books.'];
  const expected = await Promise.all(texts.map(async (t) => cleaned(await byScript(pair, t))));
  const got = await Promise.all(texts.map((t) => engine.translate(pair, t)));
  expect(got.map((g) => g.translated_text)).toEqual(expected);
  expect(engine.running()[pair.mode]).toBeLessThanOrEqual(2);
}, 60_000);

test('a pipeline that dies is replaced on the next call; a call over its deadline fails and is not reused', async () => {
  // a stand-in pipeline that answers \0-terminated texts by echoing them upper-cased, and dies on "die"
  const echo = `while IFS= read -r -d '' t; do [ "$t" = die ] && exit 3; printf '%s\\0' "\${t^^}"; done`;
  const pool = new PairPool(echo, process.env, { max: 1, idleMs: 60_000, timeoutMs: 2000, cpuSplit: 'auto' });
  try {
    expect(await pool.run('abc')).toBe('ABC');
    await expect(pool.run('die')).rejects.toThrow(/exited/);
    expect(await pool.run('again')).toBe('AGAIN');
    expect(pool.size).toBe(1);
  } finally {
    pool.stop();
  }
  const slow = new PairPool(`while IFS= read -r -d '' t; do sleep 5; done`, process.env, { max: 1, idleMs: 60_000, timeoutMs: 300, cpuSplit: 'auto' });
  try {
    await expect(slow.run('x')).rejects.toThrow(/within 300 ms/);
    expect(slow.size).toBe(0);
  } finally {
    slow.stop();
  }
}, 30_000);
