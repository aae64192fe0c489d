// The in-process plain-text deformatter and reformatter (subgraphs/ai/models/apertium.format.ts)
// print byte for byte what apertium-destxt and apertium-retxt print: on the translation tests'
// texts and on generated ones with every special character, tabs, CRLF, runs of blank lines,
// unicode, leading and trailing blanks, NUL and the empty string; retxt also on what the pipelines
// answer and on text full of brackets, escapes and `.[]`. Then every installed pair translates the
// generated texts as `apertium <mode>` does. Skipped where Apertium is absent.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Apertium } from '../../../subgraphs/ai/models/apertium.js';
import { deformatText, reformatText } from '../../../subgraphs/ai/models/apertium.format.js';
import { sentenceSegments } from '../../../subgraphs/ai/models/apertium.pipeline.js';

const run = promisify(execFile);

/** The binary's stdout for `input` on its stdin, as bytes. */
function binary(program: string, input: string | Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${program} exited ${code}`))));
    child.stdin.end(input);
  });
}

async function installed(): Promise<boolean> {
  try {
    await run('which', ['apertium-destxt', 'apertium-retxt']);
    return true;
  } catch {
    return false;
  }
}

const SPECIAL = ['[', ']', '\\', '/', '@', '<', '>', '^', '$', '{', '}', '*', '#', '~', '|', '.', '[]', '.[]', '[@', '[\\@', '\\@'];
const BLANKS = [' ', '  ', '\t', '\n', '\n\n', '\n\n\n', '\r\n', '\r\n\r\n', '\r\n\r\n\r\n', '\n\r\n\r\n', '\r', ' \t ', '~', ' ~ ', '\n \n', '\n\n\r\n\r\n\n\n'];
const WORDS = ['Hello', 'world.', 'ñandú', '日本語', 'émigré', '😀', 'x', '3.5', 'e-mail', "l'eau", '¿qué?', 'Ελλάδα'];

/** The translation tests' texts, and generated ones (seeded, so a failure repeats). */
function texts(): string[] {
  const fixed = [
    '',
    ' ',
    '\n',
    '\n\n',
    'Hello world.',
    'Hello world',
    '  leading and trailing  ',
    '\n\nleading paragraph',
    'trailing paragraph\n\n',
    'First paragraph here.\n\nSecond paragraph,  with two spaces\tand a tab.\nA new line without a stop',
    'Brackets [like this], a caret ^ and dollar $, at @ sign, slash / and back\\slash, <angle> {curly} *star #hash ~tilde | bar.',
    'Zorblax frobnicated the quuxes!   Trailing spaces   ',
    'Good engineering is patient, curious and a little stubborn. '.repeat(20),
    'El gato está en la mesa. Mañana iremos a la playa con mis amigos.',
    'Línea uno.\n\nLínea dos: ¿qué tal? ¡Muy bien!',
    "Aujourd'hui,  il fait beau.\n\nC'est vrai.",
    'line one\r\nline two\r\n\r\nline three\r\n',
    'a\0b \0 c\0',
    '[@/etc/hostname]',
    SPECIAL.join(''),
    SPECIAL.join(' '),
    BLANKS.join('w'),
  ];
  let seed = 31;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const pools = [SPECIAL, BLANKS, WORDS, WORDS];
  const generated = Array.from({ length: 300 }, () => {
    let s = '';
    for (let k = next(40); k >= 0; k--) {
      const pool = pools[next(pools.length)];
      s += pool[next(pool.length)];
    }
    return s;
  });
  return [...fixed, ...generated];
}

let available = false;
beforeAll(async () => {
  available = await installed();
});

test('deformatText prints what apertium-destxt prints, byte for byte', async () => {
  if (!available) return console.warn('apertium-destxt not installed: skipped');
  for (const text of texts()) {
    expect({ text, out: Buffer.from(deformatText(text), 'utf8').toString('latin1') }).toEqual({
      text,
      out: (await binary('apertium-destxt', text)).toString('latin1'),
    });
  }
}, 120_000);

test('reformatText prints what apertium-retxt prints, byte for byte (destxt output, and raw text)', async () => {
  if (!available) return console.warn('apertium-retxt not installed: skipped');
  for (const text of texts()) {
    // a [@file] block makes retxt read (or fail on) a file: ours refuses it, checked below
    for (const input of [deformatText(text), text].filter((t) => !/\[@[^\]]+\]/.test(t))) {
      expect({ input, out: Buffer.from(reformatText(input), 'utf8').toString('latin1') }).toEqual({
        input,
        out: (await binary('apertium-retxt', input)).toString('latin1'),
      });
    }
  }
}, 120_000);

test('a [@file] block in a pipeline answer is refused, not read; the escaped text never makes one', () => {
  expect(() => reformatText('a [@/etc/hostname] b')).toThrow(/not read/);
  expect(reformatText(deformatText('a [@/etc/hostname] b'))).toBe('a [@/etc/hostname] b');
  expect(reformatText('[@] [@')).toBe('@ @');
});

test('a blank over 8,192 characters (destxt spills it to a file) stays inline and comes back whole', () => {
  const text = `a${' \n'.repeat(5000)}b`;
  expect(reformatText(deformatText(text))).toBe(text);
});

/** Texts long enough to go in as several segments, in every pair's source language. */
const LONG_TEXTS = [
  (
    'When I was a kid, I was always fascinated by how things worked. My father was an engineer at Boeing in Seattle, and he took me to the factory in June 1998. ' +
    'I saw the wings of a plane being built by hundreds of people. That day I decided I wanted to build things too. Years later I studied engineering at MIT, ' +
    'and the first thing I built was a terrible robot that could not walk. But building that robot taught me more than any lecture. Today our team at Microsoft ' +
    'spends $5 million a year on robots, and I still remember that factory. Good engineering is patient, curious and a little stubborn. '
  ).repeat(2),
  'Mr. Smith met Dr. Jones at 10 a.m. on Monday. They talked about the plan, e.g. The budget and the team. Was it good? Nobody knew! '.repeat(12),
  'El gato duerme en la casa. Mañana vamos a la playa con mis amigos. ¿Dónde está el libro? ¡Qué bonito día hace hoy! '.repeat(10),
  "Le chat dort dans la maison. Demain nous allons à la plage avec mes amis. Où est le livre? Quelle belle journée aujourd'hui! ".repeat(10),
];

test('a long text goes in as sentence segments of ~160 characters, cut only after a word of four lower-case letters', () => {
  expect(sentenceSegments('short. Text')).toEqual(['short. Text']);
  const segs = sentenceSegments(deformatText(LONG_TEXTS[0].slice(0, 1000)));
  expect(segs.length).toBe(6);
  expect(segs.join('')).toBe(deformatText(LONG_TEXTS[0].slice(0, 1000)));
  for (const s of segs.slice(0, -1)) expect(s).toMatch(/\p{Ll}{4}[.!?] $/u);
  for (const s of sentenceSegments(LONG_TEXTS[1]).slice(0, -1)) expect(s).not.toMatch(/(Mr|Dr|a\.m|e\.g)\. $/);
  // abbreviations the analysers read with their period (a cut there changed the words around it)
  const abbreviations = 'We met Mrs. Smith of Acme Inc. Today and Prof. Jones in mar. Luces del puerto, etc. The end came. '.repeat(8);
  for (const s of sentenceSegments(abbreviations).slice(0, -1)) expect(s).toMatch(/came\. $/);
  // at most eight segments however long the text
  expect(sentenceSegments(deformatText(LONG_TEXTS[0].repeat(4))).length).toBe(8);
});

test('every installed pair translates the generated texts as apertium <mode> does', async () => {
  const engine = await Apertium.discover({ max: 1, idleMs: 60_000, timeoutMs: 30_000, cpuSplit: 'auto' });
  try {
    if (!engine.pairs.length) return console.warn('no Apertium pair installed: skipped');
    const dir = await mkdtemp(join(tmpdir(), 'apertium-format-'));
    const cleaned = (s: string): string =>
      s.replace(/(?<![\p{L}\p{N}])[*#@](?=[\p{L}\p{N}])/gu, '').replace(/[ \t]+\n/g, '\n').trimEnd();
    try {
      // plus a blank destxt spills to a file (over 8,192 characters): ours stays inline, same translation
      // and long texts the pipeline takes in sentence segments (apertium.pipeline.ts), with the
      // abbreviations and punctuation a cut must not split on or change
      const sample = [...texts().filter((_, i) => i % 10 === 0 || i < 22), `The cat.${' \n'.repeat(5000)}The dog.`, ...LONG_TEXTS];
      for (const pair of engine.pairs) {
        for (const [i, text] of sample.entries()) {
          const file = join(dir, `${pair.mode}-${i}.txt`);
          await writeFile(file, text, 'utf8');
          const expected = cleaned((await run('apertium', [pair.mode, file], { timeout: 30_000 })).stdout);
          expect({ mode: pair.mode, text, got: (await engine.translate(pair, text)).translated_text }).toEqual({ mode: pair.mode, text, got: expected });
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    engine.stop();
  }
}, 600_000);
