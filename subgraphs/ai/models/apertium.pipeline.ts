// One Apertium translation pipeline kept alive between calls (issue 31: spawning the ten programs of
// a pair per call cost ~150 ms, most of it loading their dictionaries). Every stage runs in
// null-flush mode (`-z`, the pipeline `apertium-wblank-mode -z` prints from the pair's mode file):
// a text terminated by \0 goes in, and its translation comes out followed by \0. One text at a
// time: the pool (apertium.pool.ts) hands a pipeline to one caller until it answers.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** The last stderr bytes kept for an error message. */
const STDERR_KEPT = 2048;

export class ApertiumPipeline {
  private readonly child: ChildProcessWithoutNullStreams;
  private chunks: Buffer[] = [];
  private stderr = '';
  private waiting: { resolve(v: string): void; reject(e: Error): void; timer: NodeJS.Timeout } | null = null;
  private exited = false;
  /** when it last answered (performance.now()), for closing idle pipelines */
  lastUsed = performance.now();

  /**
   * @param command the stages as one shell pipeline (`$1`: the generator's option, `-g` as the
   *   apertium script passes for text; `$2`: the tagger's, empty)
   */
  constructor(command: string, env: NodeJS.ProcessEnv) {
    // its own process group, so a timeout ends every stage, not only the shell
    this.child = spawn('bash', ['-c', command, 'apertium-pipeline', '-g', ''], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (b: Buffer) => this.onData(b));
    this.child.stderr.on('data', (b: Buffer) => (this.stderr = (this.stderr + b.toString('utf8')).slice(-STDERR_KEPT)));
    this.child.stdin.on('error', () => undefined); // a dead stage: reported by 'exit'
    this.child.on('error', (e) => this.fail(e));
    this.child.on('exit', (code, signal) => this.fail(new Error(`the Apertium pipeline exited (${signal ?? `code ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ''}`)));
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The pipeline's output for one deformatted text (apertium-destxt's output). */
  run(input: string, timeoutMs: number): Promise<string> {
    if (this.exited) return Promise.reject(new Error('the Apertium pipeline has exited'));
    if (this.waiting) return Promise.reject(new Error('the Apertium pipeline is busy'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new Error(`the Apertium pipeline did not answer within ${timeoutMs} ms`));
        this.stop();
      }, timeoutMs);
      this.waiting = { resolve, reject, timer };
      this.chunks = [];
      // \0 ends a text in null-flush mode, so the text itself must carry none
      this.child.stdin.write(input.replaceAll('\0', '') + '\0');
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
    const end = b.indexOf(0);
    if (end < 0) return void this.chunks.push(b);
    this.chunks.push(b.subarray(0, end));
    const out = Buffer.concat(this.chunks).toString('utf8');
    this.chunks = end + 1 < b.length ? [b.subarray(end + 1)] : [];
    const w = this.waiting;
    this.waiting = null;
    this.lastUsed = performance.now();
    if (w) {
      clearTimeout(w.timer);
      w.resolve(out);
    }
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
