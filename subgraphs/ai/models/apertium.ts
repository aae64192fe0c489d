// Translation: Apertium 3.8 (GPL-2.0+, run as a separate program, never linked), a rule-based
// machine translation system; its language pairs are Debian packages (apertium-eng-spa,
// apertium-spa-cat + cg3, apertium-fr-es, …). The installed pairs are read from `apertium -l`.
// Apertium marks words it does not know with `*` (and generation problems with `#`); the share of
// words without a mark is the translation's confidence, and the marks are removed from the text.
// Each pair's stages stay alive between calls in null-flush mode (apertium.pool.ts), so a call costs
// the translation, not the start of ten programs and the loading of their dictionaries; the plain-text
// deformatter and reformatter run in-process (apertium.format.ts), so a call spawns nothing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { wordTokens } from '../../../lib/hashed-embeddings.js';
import { round } from './sentiment.js';
import { deformatText, reformatText } from './apertium.format.js';
import { ApertiumPipeline } from './apertium.pipeline.js';
import { PairPool, type PoolOptions } from './apertium.pool.js';

const run = promisify(execFile);
const DATA_DIR = process.env.APERTIUM_DATADIR || '/usr/share/apertium';
/**
 * One pipeline per pair (calls on one pair queue; eng-spa's stages hold ~115 MB PSS, so each further
 * pipeline is memory an operator chooses to spend), closed after five idle minutes, 30 s per call,
 * its stages' placement over two CPUs chosen by timing where the process has two (config.ts reads AI_TRANSLATION_PIPELINES,
 * AI_TRANSLATION_IDLE_MS, AI_TRANSLATION_TIMEOUT_MS, AI_TRANSLATION_CPU_SPLIT).
 */
export const DEFAULT_POOL: PoolOptions = { max: 1, idleMs: 300_000, timeoutMs: 30_000, cpuSplit: 'auto' };

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
  private readonly pools = new Map<string, PairPool>();

  private constructor(
    readonly pairs: readonly LanguagePair[],
    readonly version: string,
    /** each pair's stages in null-flush mode, by mode */
    private readonly commands: ReadonlyMap<string, string>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly opts: PoolOptions,
  ) {}

  /** Reads the installed pairs; no pairs (or no apertium binary) → an engine with none. */
  static async discover(opts: PoolOptions = DEFAULT_POOL): Promise<Apertium> {
    const env = { ...process.env, LC_CTYPE: await utf8Locale() };
    try {
      const { stdout } = await run('apertium', ['-l'], { timeout: 10_000, env });
      const pairs = new Map<string, LanguagePair>();
      const commands = new Map<string, string>();
      for (const mode of stdout.split(/\s+/).filter(Boolean)) {
        const m = /^([a-z]{2,3})-([a-z]{2,3})$/.exec(mode);
        if (!m) continue;
        const pair = { source: iso1(m[1]), target: iso1(m[2]), mode };
        const key = `${pair.source}-${pair.target}`;
        if (pairs.has(key)) continue;
        // the same stages the apertium script runs for the mode, each with -z
        const { stdout: command } = await run('apertium-wblank-mode', ['-z', join(DATA_DIR, 'modes', `${mode}.mode`)], { timeout: 10_000, env });
        pairs.set(key, pair);
        commands.set(mode, command.trim());
      }
      const sorted = [...pairs.values()].sort((a, b) => a.source.localeCompare(b.source) || a.target.localeCompare(b.target));
      return new Apertium(sorted, await version(), commands, env, opts);
    } catch {
      return new Apertium([], 'not installed', new Map(), env, opts);
    }
  }

  find(source: string, target: string): LanguagePair | undefined {
    return this.pairs.find((p) => p.source === source && p.target === target);
  }

  /** destxt → the pair's persistent pipeline → retxt (the format filters in-process, apertium.format.ts): what `apertium <mode>` prints for the text. */
  async translate(pair: LanguagePair, text: string): Promise<Translation> {
    const command = this.commands.get(pair.mode);
    if (!command) throw new Error(`no Apertium mode ${pair.mode}`);
    let pool = this.pools.get(pair.mode);
    if (!pool) this.pools.set(pair.mode, (pool = new PairPool(command, this.env, this.opts)));
    const stdout = reformatText(await pool.run(deformatText(text)));
    const words = wordTokens(stdout).length;
    const marked = (stdout.match(/(?<![\p{L}\p{N}])[*#@][\p{L}\p{N}]/gu) ?? []).length;
    const clean = stdout.replace(/(?<![\p{L}\p{N}])[*#@](?=[\p{L}\p{N}])/gu, '').replace(/[ \t]+\n/g, '\n').trimEnd();
    return { translated_text: clean, confidence: words ? round(1 - marked / words) : 0 };
  }

  /** A pipeline of the pair's stages of its own, outside the pools (bench/apertium-cuts.bench.ts), split over `cpus` for good if two are given; the caller stops it. */
  pipeline(pair: LanguagePair, cpus: readonly number[] = []): ApertiumPipeline {
    const command = this.commands.get(pair.mode);
    if (!command) throw new Error(`no Apertium mode ${pair.mode}`);
    return new ApertiumPipeline(command, this.env, cpus, false);
  }

  /** Running pipelines per mode, for health. */
  running(): Record<string, number> {
    return Object.fromEntries([...this.pools].map(([mode, pool]) => [mode, pool.size]));
  }

  /** Where each running pipeline's stages are placed (split over two CPUs or shared) and why, per mode, for health. */
  placements(): Record<string, ReturnType<PairPool['placements']>> {
    return Object.fromEntries([...this.pools].map(([mode, pool]) => [mode, pool.placements()]));
  }

  stop(): void {
    for (const pool of this.pools.values()) pool.stop();
  }
}

/** The first UTF-8 locale, as the apertium script picks one (its stages read UTF-8 by the locale). */
async function utf8Locale(): Promise<string> {
  try {
    const { stdout } = await run('locale', ['-a'], { timeout: 5000 });
    return stdout.split('\n').find((l) => /utf-?8/i.test(l)) ?? 'C.UTF-8';
  } catch {
    return 'C.UTF-8';
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
