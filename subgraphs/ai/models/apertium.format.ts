// Apertium's plain-text deformatter and reformatter (apertium-destxt, apertium-retxt: what the
// `apertium` script runs around a pair's pipeline for -f txt). They read their input to its end, so
// they cannot stay alive between texts like the pipeline's stages; instead one of each is started
// ahead, waiting on its input, so a call does not wait for a program to start (a few ms each on a
// loaded machine). The output is theirs, byte for byte, as the spawn-per-call engine had it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: Promise<string>;
}

export class FormatFilter {
  private spare: Started | null = null;

  constructor(
    private readonly program: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The program's output for `input`; a started one answers, and the next one starts. */
  async run(input: string, timeoutMs: number): Promise<string> {
    const s = this.spare ?? this.start();
    this.spare = this.start();
    s.child.stdin.end(input);
    const timer = setTimeout(() => s.child.kill('SIGKILL'), timeoutMs);
    try {
      return await s.output;
    } finally {
      clearTimeout(timer);
    }
  }

  stop(): void {
    this.spare?.child.kill('SIGKILL');
    this.spare = null;
  }

  private start(): Started {
    const child = spawn(this.program, [], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => (err = (err + b.toString('utf8')).slice(-1024)));
    child.stdin.on('error', () => undefined);
    const output = new Promise<string>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new Error(`${this.program} failed (${signal ?? `code ${code}`})${err ? `: ${err.trim()}` : ''}`));
      });
    });
    output.catch(() => undefined); // a spare that is never used (stop) rejects unobserved
    return { child, output };
  }
}
