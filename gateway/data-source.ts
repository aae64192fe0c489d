// Requests from the gateway to subgraphs: the signed tenant context rides in a header, over
// Node's fetch (undici), which keeps connections alive.
import { RemoteGraphQLDataSource } from '@apollo/gateway';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../lib/tenant.js';

export interface GatewayContext {
  tenant: TenantContext;
}

export class SignedDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(url: string, private secret: string) {
    super({ url, fetcher: fetch as any });
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]): void {
    const tenant = (context as Partial<GatewayContext>).tenant;
    if (tenant) request.http?.headers.set(TENANT_HEADER, signTenantContext(tenant, this.secret));
  }
}
