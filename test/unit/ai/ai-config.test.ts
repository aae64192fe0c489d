// The AI service's settings (subgraphs/ai/config.ts): models on first use unless AI_PRELOAD=1, the
// translation pipelines' bounds, and a bad value stopping start-up with the variable's name.
import { ConfigError } from '../../../lib/config.js';
import { loadAiConfig } from '../../../subgraphs/ai/config.js';
import { DEFAULT_POOL } from '../../../subgraphs/ai/models/apertium.js';

test('defaults: nothing preloaded, one Apertium pipeline per pair, its stages split over two CPUs where the process has two', () => {
  const c = loadAiConfig('/tmp/data', {});
  expect(c).toMatchObject({ preload: false, visionPreload: false, textWorkers: 1, translation: DEFAULT_POOL });
  expect(DEFAULT_POOL).toEqual({ max: 1, idleMs: 300_000, timeoutMs: 30_000, cpuSplit: 'auto' });
});

test('AI_PRELOAD and the translation settings are read; bad values name their variable', () => {
  const c = loadAiConfig('/tmp/data', { AI_PRELOAD: '1', AI_TRANSLATION_PIPELINES: '3', AI_TRANSLATION_IDLE_MS: '60000', AI_TRANSLATION_TIMEOUT_MS: '5000', AI_TRANSLATION_CPU_SPLIT: 'off' });
  expect(c).toMatchObject({ preload: true, translation: { max: 3, idleMs: 60_000, timeoutMs: 5000, cpuSplit: 'off' } });
  expect(() => loadAiConfig('/tmp/data', { AI_PRELOAD: 'yes' })).toThrow(ConfigError);
  expect(() => loadAiConfig('/tmp/data', { AI_TRANSLATION_PIPELINES: '0' })).toThrow(/AI_TRANSLATION_PIPELINES/);
  expect(loadAiConfig('/tmp/data', { AI_TRANSLATION_CPU_SPLIT: 'on' }).translation.cpuSplit).toBe('on');
  expect(() => loadAiConfig('/tmp/data', { AI_TRANSLATION_CPU_SPLIT: 'pinned' })).toThrow(/AI_TRANSLATION_CPU_SPLIT/);
});
