// Latency statistics for benchmarks: percentiles over sorted samples (milliseconds).
export interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  rps: number;
  /** CPU of this process (user + system) per call, when measured: steadier than latency on a loaded machine */
  cpuMs?: number;
}

export function summarize(samples: number[], wallMs: number): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length, rps: (s.length / wallMs) * 1000 };
}

export function fmt(label: string, st: Stats): string {
  return `${label.padEnd(46)} n=${String(st.n).padStart(6)}  p50 ${st.p50.toFixed(3).padStart(8)} ms  p95 ${st.p95.toFixed(3).padStart(8)} ms  p99 ${st.p99.toFixed(3).padStart(8)} ms  ${st.rps.toFixed(0).padStart(7)} req/s${st.cpuMs === undefined ? '' : `  cpu ${st.cpuMs.toFixed(2)} ms/call`}`;
}

/** Run `fn` `n` times sequentially after `warmup` untimed runs. */
export async function sequential(n: number, warmup: number, fn: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return summarize(samples, performance.now() - start);
}

/** `concurrency` workers sharing `n` calls: throughput under load. */
export async function concurrent(n: number, concurrency: number, fn: () => Promise<unknown>): Promise<Stats> {
  const samples: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        const t = performance.now();
        await fn();
        samples.push(performance.now() - t);
      }
    }),
  );
  return summarize(samples, performance.now() - start);
}

/** min / median / max of a few runs' figures, as the A/B benches print them. */
export function spread(a: number[], digits: number): string {
  const s = [...a].sort((x, y) => x - y);
  return `min ${s[0]!.toFixed(digits)} median ${s[Math.floor(s.length / 2)]!.toFixed(digits)} max ${s[s.length - 1]!.toFixed(digits)}`;
}
