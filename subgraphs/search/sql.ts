// Qualified table names of the search schema, for the hand-written SQL of the hot paths (task
// claiming, bulk document writes, analytics aggregation). The entities define the same tables.
/** the search subgraph's PostgreSQL schema */
export const SCHEMA = 'search';

export const T = {
  indexes: '"search"."indexes"',
  documents: '"search"."documents"',
  documentFields: '"search"."document_fields"',
  tasks: '"search"."tasks"',
  payloads: '"search"."task_payloads"',
  snapshots: '"search"."index_snapshots"',
  snapshotChunks: '"search"."index_snapshot_chunks"',
  queries: '"search"."search_queries"',
  events: '"search"."search_events"',
  nodes: '"search"."nodes"',
} as const;

/** affected rows of an em.execute(..., 'run') */
export function affected(res: unknown): number {
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}
