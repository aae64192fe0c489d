// The platform subgraph: platforms, accounts, apps and API keys (this issue); block licensing,
// subscriptions, user access... come later. Owns the `App` entity other subgraphs extend.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { createPlatformLoaders, type PlatformLoaders } from './context.js';
import { platformFilters, scopeToPlatform } from './tenancy.js';
import { PlatformEntity } from './platforms/platform.entity.js';
import { PlatformResolver } from './platforms/platform.resolver.js';
import { platformReference } from './platforms/platform.reference.js';
import { AccountEntity } from './accounts/account.entity.js';
import { AccountResolver } from './accounts/account.resolver.js';
import { accountReference } from './accounts/account.reference.js';
import { AppEntity } from './apps/app.entity.js';
import { AppResolver } from './apps/app.resolver.js';
import { appReference } from './apps/app.reference.js';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { apiKeyReference } from './api-keys/api-key.reference.js';
import { DomainResolver } from './domains/domain.resolver.js';
import { migrations } from './migrations/index.js';

export const platform: SubgraphDefinition<PlatformLoaders> = {
  name: 'platform',
  dbSchema: 'platform',
  resolvers: [PlatformResolver, AccountResolver, AppResolver, ApiKeyResolver, DomainResolver],
  referenceResolvers: { ...platformReference, ...accountReference, ...appReference, ...apiKeyReference },
  entities: [PlatformEntity, AccountEntity, AppEntity, ApiKeyEntity],
  migrations,
  // Tenant scoping in one place: the `platform` filter on accounts, apps and keys (tenancy.ts).
  filters: platformFilters,
  scope: scopeToPlatform,
  createLoaders: createPlatformLoaders,
};
