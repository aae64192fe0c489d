export const REPORTING_RESOLVERS = [] as const;
