// Usage counts (infra.usage) are flushed to the platform subgraph in batches every 2 s, not written
// per request; stop() flushes what is left.
import type { Infra } from '../lib/infra.js';
import type { Logger } from '../lib/logger.js';
import type { PlatformClient } from './platform-client.js';

export const USAGE_FLUSH_MS = 2000;

export function startUsageFlush(infra: Infra, platform: PlatformClient, log: Logger): { stop(): Promise<void> } {
  const flush = setInterval(() => {
    infra.usage
      .drain()
      .then((u) => platform.recordUsage(u))
      .catch((e) => log.warn('usage flush failed', { err: e }));
  }, USAGE_FLUSH_MS);
  flush.unref();
  return {
    async stop() {
      clearInterval(flush);
      await infra.usage
        .drain()
        .then((u) => platform.recordUsage(u))
        .catch(() => undefined);
    },
  };
}
