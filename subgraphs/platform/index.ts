// The platform subgraph: platforms, accounts, apps and API keys (this issue); block licensing,
// subscriptions, user access... come later. Owns the `App` entity other subgraphs extend.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { PLATFORM_ERRORS } from './error-codes.js';
import { ACCOUNT_PAGE } from './accounts/account.service.js';
import { ACCOUNT_EVENTS } from './event-types.js';
import { createPlatformLoaders, type PlatformLoaders } from './context.js';
import { scopeToPlatform } from './tenancy.js';
import { PlatformEntity } from './platforms/platform.entity.js';
import { PlatformResolver } from './platforms/platform.resolver.js';
import { platformReference } from './platforms/platform.reference.js';
import { PlatformOperatorEntity } from './operators/platform-operator.entity.js';
import { PlatformOperatorResolver } from './operators/platform-operator.resolver.js';
import { AccountEntity } from './accounts/account.entity.js';
import { AccountResolver } from './accounts/account.resolver.js';
import { accountReference } from './accounts/account.reference.js';
import { AppEntity } from './apps/app.entity.js';
import { AppResolver } from './apps/app.resolver.js';
import { appReference } from './apps/app.reference.js';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { apiKeyReference } from './api-keys/api-key.reference.js';
import { BlockEntity, BlockInstanceEntity, BlockLicenseEntity } from './blocks/block.entity.js';
import { AccountBlocksResolver, AppBlocksResolver, BlockResolver } from './blocks/block.resolver.js';
import { blockReference } from './blocks/block.reference.js';
import { UserAccessEntity } from './user-access/user-access.entity.js';
import { UserAccessResolver } from './user-access/user-access.resolver.js';
import { DomainResolver } from './domains/domain.resolver.js';
import { RegisteredOperationResolver } from './operations/registered-operation.resolver.js';
import { RegisteredOperationEntity, RegisteredOperationPolicyEntity } from './operations/registered-operation.entity.js';
import { migrations } from './migrations/index.js';
// account services and data transfers (issue 3, parts 7-8)
import { CredentialEntity } from './credentials/credential.entity.js';
import { CredentialResolver } from './credentials/credential.resolver.js';
import { ExchangeEntity } from './exchanges/exchange.entity.js';
import { ExchangeResolver } from './exchanges/exchange.resolver.js';
import { AccountDetailsEntity } from './account-details/account-details.entity.js';
import { AccountDetailsResolver } from './account-details/account-details.resolver.js';
import { AccountStorageEntity } from './storage/account-storage.entity.js';
import { StorageResolver } from './storage/storage.resolver.js';
import { NotificationSettingsEntity } from './notifications/notification-settings.entity.js';
import { AccountEventEntity } from './notifications/account-event.entity.js';
import { webhookEntities } from '../../lib/webhooks/index.js';
import { AppWebhookSecretEntity } from './notifications/app-webhook-secret.entity.js';
import { NotificationsResolver } from './notifications/notifications.resolver.js';
import { DataTransferAccessCodeEntity, DataTransferAuditEntity, DataTransferEntity } from './data-transfers/data-transfer.entity.js';
import { DataTransferResolver } from './data-transfers/data-transfer.resolver.js';
import { DataTransferPublicResolver } from './data-transfers/data-transfer-public.resolver.js';
import { createPlatformRuntime, startWebhookSender, type PlatformRuntime } from './runtime.js';

const SERVICE_RESOLVERS = [CredentialResolver, ExchangeResolver, AccountDetailsResolver, StorageResolver, NotificationsResolver, DataTransferResolver, DataTransferPublicResolver];
const SERVICE_ENTITIES = [
  CredentialEntity,
  ExchangeEntity,
  AccountDetailsEntity,
  AccountStorageEntity,
  NotificationSettingsEntity,
  AccountEventEntity,
  ...webhookEntities,
  AppWebhookSecretEntity,
  DataTransferEntity,
  DataTransferAccessCodeEntity,
  DataTransferAuditEntity,
];
import { BILLING_ENTITIES, BILLING_RESOLVERS } from './subscriptions/billing.module.js';
import { REPORTING_RESOLVERS } from './reporting/reporting.module.js';
import { startBillingWorker } from './subscriptions/billing.worker.js';
import { JobEntity } from '../../lib/jobs/index.js';
import { useReportCacheFromConfig } from './reporting/reporting.cache.js';

export const platform: SubgraphDefinition<PlatformLoaders, PlatformRuntime> = {
  name: 'platform',
  dbSchema: 'platform',
  resolvers: [PlatformResolver, PlatformOperatorResolver, AccountResolver, AppResolver, ApiKeyResolver, BlockResolver, AccountBlocksResolver, AppBlocksResolver, UserAccessResolver, DomainResolver, RegisteredOperationResolver, ...SERVICE_RESOLVERS, ...BILLING_RESOLVERS, ...REPORTING_RESOLVERS],
  referenceResolvers: { ...platformReference, ...accountReference, ...appReference, ...apiKeyReference, ...blockReference },
  entities: [PlatformEntity, PlatformOperatorEntity, AccountEntity, AppEntity, ApiKeyEntity, BlockEntity, BlockLicenseEntity, BlockInstanceEntity, UserAccessEntity, RegisteredOperationEntity, RegisteredOperationPolicyEntity, ...SERVICE_ENTITIES, ...BILLING_ENTITIES, JobEntity],
  migrations,
  eventTypes: [ACCOUNT_EVENTS],
  errorCodes: PLATFORM_ERRORS,
  // the account list's page bounds, checked again by the REST bridge (from the contract)
  limits: { pages: { accounts: { default: ACCOUNT_PAGE.defaultSize, max: ACCOUNT_PAGE.maxSize } } },
  // the request's platform for the `tenant` filter every @TenantScoped entity gets (tenancy.ts)
  scope: scopeToPlatform,
  // the services' process-wide dependencies (master-key SecretBox, object store, outbox): ctx.runtime
  runtime: async (deps) => {
    const value = await createPlatformRuntime(deps);
    // the report cache's Redis connection when REDIS_URL is set (reporting/reporting.cache.ts): requests use it, so it runs with WORKERS=0 too
    const reportCache = useReportCacheFromConfig(deps);
    return {
      value,
      stop: async () => {
        await reportCache.stop();
        await value.close();
      },
    };
  },
  createLoaders: createPlatformLoaders,
  // background work of this process, started in this order before the server listens and stopped
  // in reverse: the webhook sender first, since the renewal job records account events that wake
  // it; then subscription renewals (subscriptions/billing.worker.ts, a recurring job of lib/jobs)
  workers: async (deps) => [await startWebhookSender(deps.runtime), await startBillingWorker({ ...deps, outbox: deps.runtime.outbox })],
};
