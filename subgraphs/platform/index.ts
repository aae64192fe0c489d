// The platform subgraph: platforms, operators, accounts, apps and API keys, blocks, user access and
// the account services, subscriptions and billing, reporting. Owns the `App` entity other subgraphs
// extend. One module per aggregate (`<aggregate>/<aggregate>.module.ts`: its entities, resolvers,
// reference resolvers, loaders, job kinds and workers), merged here by composeModules.
import { composeModules } from '../../lib/subgraph-module.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { PLATFORM_ERRORS } from './error-codes.js';
import { ACCOUNT_PAGE } from './accounts/account.service.js';
import { ACCOUNT_EVENTS } from './event-types.js';
import type { PlatformContext, PlatformLoaders } from './context.js';
import { scopeToPlatform } from './tenancy.js';
import { migrations } from './migrations/index.js';
import { createPlatformRuntime, type PlatformRuntime } from './runtime.js';
import { useReportCacheFromConfig } from './reporting/reporting.cache.js';
// imported in the order of the list below: type-graphql orders the schema's fields as their classes load
import { platformModule } from './platforms/platform.module.js';
import { operatorModule } from './operators/platform-operator.module.js';
import { accountModule } from './accounts/account.module.js';
import { appModule } from './apps/app.module.js';
import { apiKeyModule } from './api-keys/api-key.module.js';
import { blockModule } from './blocks/block.module.js';
import { userAccessModule } from './user-access/user-access.module.js';
import { domainModule } from './domains/domain.module.js';
import { registeredOperationModule } from './operations/registered-operation.module.js';
import { credentialModule } from './credentials/credential.module.js';
import { exchangeModule } from './exchanges/exchange.module.js';
import { accountDetailsModule } from './account-details/account-details.module.js';
import { storageModule } from './storage/storage.module.js';
import { notificationsModule } from './notifications/notifications.module.js';
import { dataTransferModule } from './data-transfers/data-transfer.module.js';
import { invoiceModule } from './invoices/invoice.module.js';
import { billingModule } from './subscriptions/billing.module.js';
import { reportingModule } from './reporting/reporting.module.js';

const modules = composeModules<PlatformLoaders, PlatformContext>(
  [
    platformModule,
    operatorModule,
    accountModule,
    appModule,
    apiKeyModule,
    blockModule,
    userAccessModule,
    domainModule,
    registeredOperationModule,
    credentialModule,
    exchangeModule,
    accountDetailsModule,
    storageModule,
    // its worker (the webhook sender) starts before the job worker: the renewal job records account events that wake it
    notificationsModule,
    dataTransferModule,
    invoiceModule,
    billingModule,
    reportingModule,
  ],
  { schema: 'platform' },
);

export const platform: SubgraphDefinition<PlatformLoaders, PlatformRuntime> = {
  name: 'platform',
  dbSchema: 'platform',
  resolvers: modules.resolvers as SubgraphDefinition['resolvers'],
  referenceResolvers: modules.referenceResolvers,
  entities: modules.entities,
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
  createLoaders: modules.createLoaders,
  // background work of this process, started in this order before the server listens and stopped in
  // reverse: the modules' workers (the webhook sender), then the job worker of their job kinds
  // (subscription renewals, subscriptions/billing.worker.ts)
  workers: modules.workers,
};
