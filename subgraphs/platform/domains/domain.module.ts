// Domains: verification of an account's domain (DNS; no table of its own).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { DomainResolver } from './domain.resolver.js';

export const domainModule: SubgraphModule<PlatformContext> = {
  name: 'domains',
  resolvers: [DomainResolver],
};
