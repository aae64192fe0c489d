// An AI caller for e2e tests: a fresh tenant, a registered user, and the headers AI calls carry
// (the tenant's key and the user's JWT).
import { createTenant, mintToken, rest, uniq, type Tenant } from './client.js';

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
