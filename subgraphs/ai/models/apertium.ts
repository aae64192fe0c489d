// Translation: Apertium 3.8 (GPL-2.0+, run as a separate program, never linked), a rule-based
// machine translation system; its language pairs are Debian packages (apertium-eng-spa,
// apertium-spa-cat + cg3, apertium-fr-es, …). The installed pairs are read from `apertium -l`.
// Apertium marks words it does not know with `*` (and generation problems with `#`); the share of
// words without a mark is the translation's confidence, and the marks are removed from the text.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { wordTokens } from '../../../lib/hashed-embeddings.js';
import { round } from './sentiment.js';

const run = promisify(execFile);

/** Apertium's three-letter codes → ISO 639-1, so the API speaks one code system. */
const ISO1: Record<string, string> = {
  eng: 'en', spa: 'es', cat: 'ca', fra: 'fr', por: 'pt', ita: 'it', deu: 'de', nld: 'nl', glg: 'gl', eus: 'eu', oci: 'oc',
  arg: 'an', ron: 'ro', swe: 'sv', dan: 'da', nob: 'nb', nno: 'nn', isl: 'is', epo: 'eo', bel: 'be', rus: 'ru', ukr: 'uk',
  pol: 'pl', ces: 'cs', slk: 'sk', slv: 'sl', hrv: 'hr', srp: 'sr', bos: 'bs', mkd: 'mk', bul: 'bg', ell: 'el', tur: 'tr',
  kaz: 'kk', tat: 'tt', eng_US: 'en',
};

export interface LanguagePair {
  source: string;
  target: string;
  /** the Apertium mode that translates it */
  mode: string;
}

export interface Translation {
  translated_text: string;
  confidence: number;
}

export function iso1(code: string): string {
  return ISO1[code] ?? code;
}

export class Apertium {
  private constructor(
    readonly pairs: readonly LanguagePair[],
    readonly version: string,
  ) {}

  /** Reads the installed pairs; no pairs (or no apertium binary) → an engine with none. */
  static async discover(): Promise<Apertium> {
    try {
      const { stdout } = await run('apertium', ['-l'], { timeout: 10_000 });
      const pairs = new Map<string, LanguagePair>();
      for (const mode of stdout.split(/\s+/).filter(Boolean)) {
        const m = /^([a-z]{2,3})-([a-z]{2,3})$/.exec(mode);
        if (!m) continue;
        const pair = { source: iso1(m[1]), target: iso1(m[2]), mode };
        const key = `${pair.source}-${pair.target}`;
        if (!pairs.has(key)) pairs.set(key, pair);
      }
      return new Apertium([...pairs.values()].sort((a, b) => a.source.localeCompare(b.source) || a.target.localeCompare(b.target)), await version());
    } catch {
      return new Apertium([], 'not installed');
    }
  }

  find(source: string, target: string): LanguagePair | undefined {
    return this.pairs.find((p) => p.source === source && p.target === target);
  }

  async translate(pair: LanguagePair, text: string): Promise<Translation> {
    // Apertium reads /dev/stdin by path, which fails on Node's socketpair stdin: use a file.
    const dir = await mkdtemp(join(tmpdir(), 'apertium-'));
    try {
      const file = join(dir, 'in.txt');
      await writeFile(file, text, 'utf8');
      const { stdout } = await run('apertium', [pair.mode, file], { timeout: 30_000, maxBuffer: 8 * 1024 * 1024 });
      const words = wordTokens(stdout).length;
      const marked = (stdout.match(/(?<![\p{L}\p{N}])[*#@][\p{L}\p{N}]/gu) ?? []).length;
      const clean = stdout.replace(/(?<![\p{L}\p{N}])[*#@](?=[\p{L}\p{N}])/gu, '').replace(/[ \t]+\n/g, '\n').trimEnd();
      return { translated_text: clean, confidence: words ? round(1 - marked / words) : 0 };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

async function version(): Promise<string> {
  try {
    const { stdout } = await run('dpkg-query', ['-W', '-f=${Version}', 'apertium'], { timeout: 5000 });
    return `apertium ${stdout.trim()}`;
  } catch {
    return 'apertium';
  }
}
