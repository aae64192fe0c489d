// The search service's error codes (document 3 part B): lower snake case and statuses as the spec's table.
// Set on the subgraph's definition (index.ts); `npm run compose` writes them to schema/contract.json,
// from which the edges render them. The declaration below adds them to the ErrorCodes type.
import { defineErrors, type CodesOf } from '../../lib/errors.js';

export const SEARCH_ERRORS = defineErrors({
  index_not_found: { status: 404, title: 'Index not found' },
  index_already_exists: { status: 409, title: 'Index already exists' },
  invalid_index_uid: { status: 400, title: 'Invalid index uid' },
  invalid_primary_key: { status: 400, title: 'Invalid primary key' },
  document_not_found: { status: 404, title: 'Document not found' },
  task_not_found: { status: 404, title: 'Task not found' },
  webhook_not_found: { status: 404, title: 'Webhook not found' },
  invalid_filter_syntax: { status: 400, title: 'Invalid filter syntax' },
  invalid_sort_attribute: { status: 400, title: 'Attribute not sortable' },
  attribute_not_filterable: { status: 400, title: 'Attribute not filterable' },
  invalid_search_facets: { status: 400, title: 'Invalid facets' },
  invalid_search_offset: { status: 400, title: 'Invalid offset' },
  invalid_search_limit: { status: 400, title: 'Invalid limit' },
  invalid_settings: { status: 400, title: 'Invalid settings' },
  invalid_search_hybrid_query: { status: 400, title: 'Invalid hybrid search' },
  invalid_search_semantic_ratio: { status: 400, title: 'Invalid semantic ratio' },
  invalid_search_vector: { status: 400, title: 'Invalid search vector' },
  invalid_search_matching_strategy: { status: 400, title: 'Invalid matching strategy' },
  invalid_search_ranking_score_threshold: { status: 400, title: 'Invalid ranking score threshold' },
  invalid_search_distinct: { status: 400, title: 'Distinct attribute not filterable' },
  invalid_similar_id: { status: 400, title: 'Invalid similar id' },
  not_found_similar_id: { status: 404, title: 'Similar document not found' },
  invalid_similar_embedder: { status: 400, title: 'Index without embedding attributes' },
  invalid_swap_indexes: { status: 400, title: 'Invalid index swap' },
  invalid_swap_duplicate_index_found: { status: 400, title: 'Index in several swaps' },
  invalid_facet_search_facet_name: { status: 400, title: 'Facet not filterable' },
  invalid_facet_search_facet_query: { status: 400, title: 'Invalid facet query' },
  invalid_search_attributes_to_search_on: { status: 400, title: 'Attribute not searchable' },
  invalid_search_page: { status: 400, title: 'Invalid page' },
  invalid_search_hits_per_page: { status: 400, title: 'Invalid hits per page' },
  invalid_document_id: { status: 400, title: 'Invalid document id' },
  missing_document_id: { status: 400, title: 'Document without primary key value' },
  index_primary_key_no_candidate_found: { status: 400, title: 'Primary key could not be inferred' },
  index_primary_key_multiple_candidates_found: { status: 400, title: 'Several primary key candidates' },
  index_primary_key_already_exists: { status: 400, title: 'Index already has a primary key' },
  max_documents_exceeded: { status: 400, title: 'Document batch exceeds maximum size' },
  invalid_webhook_url: { status: 400, title: 'Webhook URL not allowed' },
  index_limit_exceeded: { status: 403, title: 'Index limit of the plan reached' },
  document_limit_exceeded: { status: 403, title: 'Document limit of the plan reached' },
});

declare module '../../lib/errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends CodesOf<typeof SEARCH_ERRORS> {}
}
