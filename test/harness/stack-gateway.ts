// Another gateway process on the test stack's own subgraphs: the stack's secrets and subgraph ports,
// plus what the test varies (a switch, a cache TTL, Redis).
import type { ChildProcess } from 'node:child_process';
import { stack } from './client.js';
import { spawnScript } from './spawn.js';

export function spawnStackGateway(port: number, extra: Record<string, string | undefined>, logName: string): ChildProcess {
  const s = stack();
  return spawnScript(
    'gateway/main.ts',
    {
      JWT_SECRET: s.env.JWT_SECRET,
      INTERNAL_SECRET: s.env.INTERNAL_SECRET,
      LOG_LEVEL: 'warn',
      GATEWAY_PORT: String(port),
      PLATFORM_PORT: s.env.PLATFORM_PORT,
      AI_PORT: s.env.AI_PORT,
      CATALOG_PORT: s.env.CATALOG_PORT,
      SEARCH_PORT: s.env.SEARCH_PORT,
      ...extra,
    },
    logName,
  );
}
