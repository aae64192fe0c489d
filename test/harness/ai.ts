// An AI caller for e2e tests: a fresh tenant, a registered user, and the headers AI calls carry
// (the tenant's key and the user's JWT).
import { createTenant, mintToken, rest, stack, uniq, type Tenant } from './client.js';
import type { ChildProcess } from 'node:child_process';
import { spawnScript } from './spawn.js';

export interface AiUser {
  t: Tenant;
  user: string;
  headers: Record<string, string>;
}

export async function aiUser(plan?: string): Promise<AiUser> {
  const t = await createTenant(plan ? { plan } : {});
  const user = uniq('user_');
  const headers = { 'x-app-id': t.appId, 'x-api-key': t.secretKey, authorization: `Bearer ${mintToken({ sub: user, scopes: [] })}` };
  const r = await rest('POST', `/identities/${user}/register`, { headers });
  if (r.status !== 201) throw new Error(`register ${user}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return { t, user, headers };
}

/**
 * An AI subgraph process of its own on `port`, beside the test stack (its database, secrets and
 * peers), with `env` on top: for tests of operator settings read at start (model servers, LLMs).
 */
export function spawnAiSubgraph(port: number, env: Record<string, string | undefined>, logName: string): ChildProcess {
  const s = stack();
  return spawnScript(
    'subgraphs/ai/main.ts',
    {
      DATABASE_URL: s.env.DATABASE_URL,
      DATA_DIR: s.env.DATA_DIR,
      JWT_SECRET: s.env.JWT_SECRET,
      INTERNAL_SECRET: s.env.INTERNAL_SECRET,
      ALLOW_PRIVATE_NETWORK_FETCH: s.env.ALLOW_PRIVATE_NETWORK_FETCH,
      PLATFORM_PORT: s.env.PLATFORM_PORT,
      CATALOG_PORT: s.env.CATALOG_PORT,
      SEARCH_PORT: s.env.SEARCH_PORT,
      LOG_LEVEL: 'warn',
      AI_PORT: String(port),
      ...env,
    },
    logName,
  );
}
