// The gateway's only direct line to a subgraph: the platform's internal (@inaccessible) fields for
// key verification, operator records and usage, called with a signed `service` context over a keep-alive connection.
import { randomUUID } from 'node:crypto';
import { postJson } from '../lib/http-client.js';
import { signTenantContext, TENANT_HEADER } from '../lib/tenant.js';
import type { KeyRecord } from './auth/api-key.js';
import type { OperatorRecord } from './auth/operators.js';

const VERIFY = `query Verify($appId: ID!, $keyHash: String!) {
  _verifyApiKey(appId: $appId, keyHash: $keyHash) {
    keyId appId accountId platformId platformCode environment keyType scopes rateLimitPerMinute appRateLimitPerMinute keyRateLimitPerMinute
    allowedIps allowedOrigins appAllowedOrigins expiresAt revoked appStatus accountStatus deploymentModel platformActive
    plan
  }
}`;

const OPERATOR = `query Operator($userId: String!, $platformCode: String!) {
  _platformOperator(userId: $userId, platformCode: $platformCode) { platformId platformCode scopes }
}`;

const REGISTRY = `query Registry($appId: ID!) { _operationRegistry(appId: $appId) { appOnly keyIds operations { id body } } }`;

/** An app's registered operations and its "registered operations only" setting (gateway/registered-operations.ts) */
export interface OperationRegistry {
  appOnly: boolean;
  keyIds: string[];
  operations: { id: string; body: string }[];
}

const RECORD_USAGE = `mutation Usage($usage: [KeyUsageInput!]!) { _recordKeyUsage(usage: $usage) }`;

export class PlatformClient {
  constructor(private url: string, private secret: string) {}

  private async call<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const payload = JSON.stringify({ query, variables });
    const tenant = signTenantContext({ kind: 'service', requestId: randomUUID(), scopes: [] }, this.secret, { audience: 'platform', body: payload });
    const res = await postJson(this.url, { 'content-type': 'application/json', [TENANT_HEADER]: tenant }, payload, 5000);
    const body = JSON.parse(res.text) as { data?: T; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(`platform subgraph: ${body.errors[0].message}`);
    return body.data as T;
  }

  async verifyApiKey(appId: string, keyHash: string): Promise<KeyRecord | null> {
    const data = await this.call<{ _verifyApiKey: KeyRecord | null }>(VERIFY, { appId, keyHash });
    return data._verifyApiKey;
  }

  async platformOperator(userId: string, platformCode: string): Promise<OperatorRecord | null> {
    const data = await this.call<{ _platformOperator: OperatorRecord | null }>(OPERATOR, { userId, platformCode });
    return data._platformOperator;
  }

  async operationRegistry(appId: string): Promise<OperationRegistry> {
    return (await this.call<{ _operationRegistry: OperationRegistry }>(REGISTRY, { appId }))._operationRegistry;
  }

  async recordUsage(usage: Map<string, number>): Promise<void> {
    if (usage.size === 0) return;
    const lastUsedAt = new Date().toISOString();
    await this.call(RECORD_USAGE, { usage: [...usage].map(([keyId, count]) => ({ keyId, count, lastUsedAt })) });
  }
}
