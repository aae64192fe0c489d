// Reporting: the platform's reports over accounts and usage (no table of its own; its cache is
// reporting.cache.ts, opened by the subgraph runtime).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { ReportingResolver } from './reporting.resolver.js';

export const reportingModule: SubgraphModule<PlatformContext> = {
  name: 'reporting',
  resolvers: [ReportingResolver],
};
