// One Apertium translation pipeline kept alive between calls (issue 31: spawning the ten programs of
// a pair per call cost ~150 ms, most of it loading their dictionaries). Every stage runs in
// null-flush mode (`-z`, the pipeline `apertium-wblank-mode -z` prints from the pair's mode file):
// a text terminated by \0 goes in, and its translation comes out followed by \0. One text at a
// time: the pool (apertium.pool.ts) hands a pipeline to one caller until it answers.
// A longer text goes in as segments of ~160 characters cut at sentence ends, each followed by \0:
// the stages (separate processes) then work on different segments at once, on both cores, instead
// of each waiting for the whole text. Each segment translates as if the text began there: the whole
// text's translation for most pairs, a word near a cut otherwise where a pair's rules carry context
// across a sentence end (fr-es, spa-cat; measured in docs/ai.md, Translation pipelines).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { StageSplit } from './apertium.cpus.js';

/** The last stderr bytes kept for an error message. */
const STDERR_KEPT = 2048;

export class ApertiumPipeline {
  private readonly child: ChildProcessWithoutNullStreams;
  private chunks: Buffer[] = [];
  /** the outputs of the segments answered so far, and how many are still to come */
  private outputs: Buffer[] = [];
  private pending = 0;
  private stderr = '';
  private waiting: { resolve(v: string): void; reject(e: Error): void; timer: NodeJS.Timeout } | null = null;
  private exited = false;
  /** the call in flight: when it began and its characters, timed for the stages' placement */
  private startedAt = 0;
  private chars = 0;
  /** the stages' split over two CPUs (apertium.cpus.ts), made after the first few calls */
  readonly split: StageSplit;
  /** when it last answered (performance.now()), for closing idle pipelines */
  lastUsed = performance.now();

  /**
   * @param command the stages as one shell pipeline (`$1`: the generator's option, `-g` as the
   *   apertium script passes for text; `$2`: the tagger's, empty)
   * @param cpus two CPUs to split the stages over (apertium.cpus.ts, splitCpus), or none
   * @param adaptive with two CPUs: choose between split and shared by timing calls in both (else split for good)
   */
  constructor(command: string, env: NodeJS.ProcessEnv, cpus: readonly number[] = [], adaptive = true) {
    // its own process group, so a timeout ends every stage, not only the shell
    this.child = spawn('bash', ['-c', command, 'apertium-pipeline', '-g', ''], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (b: Buffer) => this.onData(b));
    this.child.stderr.on('data', (b: Buffer) => (this.stderr = (this.stderr + b.toString('utf8')).slice(-STDERR_KEPT)));
    this.child.stdin.on('error', () => undefined); // a dead stage: reported by 'exit'
    this.child.on('error', (e) => this.fail(e));
    this.child.on('exit', (code, signal) => this.fail(new Error(`the Apertium pipeline exited (${signal ?? `code ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ''}`)));
    this.split = new StageSplit(this.child.pid, cpus, adaptive);
  }

  /** the shell running the stages (their parent) */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /**
   * The pipeline's output for one deformatted text (apertium-destxt's output), put in as `segments`
   * (by default its sentence segments; bench/apertium-cuts.bench.ts passes other cuts to compare).
   */
  run(input: string, timeoutMs: number, segments = sentenceSegments(input.replaceAll('\0', ''))): Promise<string> {
    if (this.exited) return Promise.reject(new Error('the Apertium pipeline has exited'));
    if (this.waiting) return Promise.reject(new Error('the Apertium pipeline is busy'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new Error(`the Apertium pipeline did not answer within ${timeoutMs} ms`));
        this.stop();
      }, timeoutMs);
      this.waiting = { resolve, reject, timer };
      this.chunks = [];
      this.outputs = [];
      this.pending = segments.length;
      this.startedAt = performance.now();
      this.chars = input.length;
      // \0 ends a text in null-flush mode, so the text itself carries none
      this.child.stdin.write(segments.map((x) => `${x.replaceAll('\0', '')}\0`).join(''));
    });
  }

  stop(): void {
    this.exited = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private onData(b: Buffer): void {
    let from = 0;
    for (let end = b.indexOf(0); end >= 0; end = b.indexOf(0, from)) {
      this.chunks.push(b.subarray(from, end));
      this.outputs.push(Buffer.concat(this.chunks));
      this.chunks = [];
      from = end + 1;
      if (--this.pending > 0) continue;
      const out = Buffer.concat(this.outputs).toString('utf8');
      this.outputs = [];
      const w = this.waiting;
      this.waiting = null;
      this.lastUsed = performance.now();
      if (w) {
        clearTimeout(w.timer);
        w.resolve(out);
      }
      const [ms, chars, startedAt] = [this.lastUsed - this.startedAt, this.chars, this.startedAt];
      setImmediate(() => void this.split.answered(ms, chars, startedAt));
    }
    if (from < b.length) this.chunks.push(b.subarray(from));
  }

  private fail(e: Error): void {
    this.exited = true;
    const w = this.waiting;
    this.waiting = null;
    if (w) {
      clearTimeout(w.timer);
      w.reject(e);
    }
  }
}

/**
 * characters per segment the splitting aims at: below twice this a text goes in whole. Segments of
 * ~160 characters keep both cores busy from the first ~2 ms of a call (400 left one core idle while
 * the first segment went through the thirteen stages alone).
 */
const SEGMENT_CHARS = 160;
/** segments at most (each costs every stage a flush: ~0.2 ms of CPU a segment over all stages) */
const MAX_SEGMENTS = 8;
/**
 * Where a sentence ends in a deformatted text: `.`, `!` or `?` after four lower-case letters, one
 * space, then an upper-case letter. Four, so that no abbreviation the analysers read as one word
 * with its period is cut after ("Mr.", "Mrs.", "e.g.", "etc.", "Inc.", "Prof.", Spanish "mar."):
 * a cut there changed the translation around it.
 */
const SENTENCE_END = /(?<=\p{Ll}{4}[.!?]) (?=\p{Lu})/gu;

/** A deformatted text cut at sentence ends into a few segments of about equal length (or whole). */
export function sentenceSegments(text: string): string[] {
  const k = Math.min(MAX_SEGMENTS, Math.floor(text.length / SEGMENT_CHARS));
  if (k < 2) return [text];
  const ends = [...text.matchAll(SENTENCE_END)].map((m) => m.index + 1);
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i < k; i++) {
    const target = (text.length * i) / k;
    let best = -1;
    for (const e of ends) if (e > start && (best < 0 || Math.abs(e - target) < Math.abs(best - target))) best = e;
    if (best <= start) break;
    out.push(text.slice(start, best));
    start = best;
  }
  out.push(text.slice(start));
  return out.filter((x) => x.length > 0);
}
