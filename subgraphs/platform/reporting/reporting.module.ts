import { ReportingResolver } from './reporting.resolver.js';

// What reporting adds to the platform subgraph definition (../index.ts).
export const REPORTING_RESOLVERS = [ReportingResolver] as const;
