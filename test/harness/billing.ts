// Billing helpers shared by the billing e2e tests: REST calls on one tenant's account.
import { jsonApi, rest, type Tenant } from './client.js';

export const DAY = 86_400_000;

export const acct = (t: Tenant) => `/accounts/${t.accountUrlId}`;

export async function subscribe(t: Tenant, attributes: Record<string, unknown>) {
  return rest('POST', `${acct(t)}/subscriptions`, { body: jsonApi('subscriptions', attributes), headers: t.platformHeaders });
}

export async function move(t: Tenant, id: string, action: string, query = '') {
  return rest('POST', `${acct(t)}/subscriptions/${id}/${action}${query}`, { headers: t.platformHeaders });
}

export async function invoices(t: Tenant, query = ''): Promise<any[]> {
  const r = await rest('GET', `${acct(t)}/invoices${query}`, { headers: t.platformHeaders });
  if (r.status !== 200) throw new Error(`list invoices: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

export async function getSub(t: Tenant, id: string): Promise<Record<string, any>> {
  const r = await rest('GET', `${acct(t)}/subscriptions/${id}`, { headers: t.platformHeaders });
  if (r.status !== 200) throw new Error(`get subscription: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.attributes;
}

