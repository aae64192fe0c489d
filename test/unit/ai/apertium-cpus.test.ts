// The split of an Apertium pipeline's stages over two CPUs (subgraphs/ai/models/apertium.cpus.ts):
// which CPUs (exactly two allowed, unless turned off), where the stages are cut (two contiguous
// groups, the larger as small as it can be), the stages found in pipeline order from /proc, and a
// live pipeline's stages pinned after its first calls, the first group on one CPU, the rest on the
// other. The pinning case is skipped where this process may use fewer than two CPUs.
import { readFileSync } from 'node:fs';
import { allowedCpus, balancedCut, splitCpus, stageProcesses } from '../../../subgraphs/ai/models/apertium.cpus.js';
import { ApertiumPipeline } from '../../../subgraphs/ai/models/apertium.pipeline.js';

const cpusOf = (pid: number): number[] => allowedCpus(readFileSync(`/proc/${pid}/status`, 'utf8'));
const commandOf = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');

test('the CPUs this process may use are read from Cpus_allowed_list; stages are split only over exactly two', () => {
  expect(allowedCpus('Name:\tnode\nCpus_allowed_list:\t0-1\n')).toEqual([0, 1]);
  expect(allowedCpus('Cpus_allowed_list:\t0,2-4,7\n')).toEqual([0, 2, 3, 4, 7]);
  expect(allowedCpus('Name:\tnode\n')).toEqual([]);
  expect(splitCpus('auto', [2, 5])).toEqual([2, 5]);
  expect(splitCpus('auto', [0])).toEqual([]);
  expect(splitCpus('auto', [0, 1, 2, 3])).toEqual([]);
  expect(splitCpus('off', [0, 1])).toEqual([]);
});

test('the cut makes the larger group of contiguous stages cost least', () => {
  // eng-spa's thirteen stages, ms of CPU per 1,000-character call (docs/ai.md): cut after the first transfer
  expect(balancedCut([1.1, 0.09, 0.54, 0.13, 0.21, 2.33, 0.79, 2.62, 1.39, 3.29, 0.08, 1.26, 0.23])).toBe(8);
  expect(balancedCut([1, 1])).toBe(1);
  expect(balancedCut([5, 1, 1, 1])).toBe(1);
  expect(balancedCut([1, 1, 1, 5])).toBe(3);
  expect(balancedCut([0, 0, 0])).toBe(1);
});

test("a pipeline's stages are found in pipeline order, and pinned after the first calls when two CPUs are given", async () => {
  // a stand-in pipeline: four stages that pass \0-terminated texts through unchanged
  const p = new ApertiumPipeline('cat | cat -u | cat - | cat -u -', process.env, allowedCpus().slice(0, 2));
  try {
    expect(await p.run('abc', 5000, ['a', 'bc'])).toBe('abc');
    const stages = stageProcesses(p.pid!);
    expect(stages.map(commandOf)).toEqual(['cat', 'cat -u', 'cat -', 'cat -u -']);
    const cpus = allowedCpus();
    if (cpus.length < 2) return console.warn('fewer than two CPUs: pinning not tested');
    for (let i = 0; i < 3; i++) expect(await p.run(`text ${i}`, 5000)).toBe(`text ${i}`);
    for (let i = 0; i < 100 && p.split.cut === null; i++) await new Promise((r) => setTimeout(r, 20));
    const cut = p.split.cut!;
    expect(cut).toBeGreaterThanOrEqual(1);
    expect(stages.map(cpusOf)).toEqual(stages.map((_, i) => [i < cut ? cpus[0] : cpus[1]]));
    expect(await p.run('still answers', 5000)).toBe('still answers');
  } finally {
    p.stop();
  }
});
