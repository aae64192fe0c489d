// The one error table. Subgraphs throw DomainError(code); the code fixes the HTTP status here,
// and each edge (GraphQL extensions, REST bridge bodies) renders it in its own documented shape.
// Codes are written as the spec writes them (PRODUCT_NOT_FOUND, index_not_found, usr-not-registered);
// cross-cutting codes are UPPER_SNAKE.
import { GraphQLError } from 'graphql';

export const ERROR_TABLE = {
  // cross-cutting: auth and request shape
  UNAUTHENTICATED: { status: 401, title: 'Authentication required' },
  INVALID_TOKEN: { status: 401, title: 'Invalid or expired token' },
  KEY_NOT_FOUND: { status: 401, title: 'Unknown API key' },
  KEY_EXPIRED: { status: 401, title: 'API key expired' },
  KEY_REVOKED: { status: 401, title: 'API key revoked' },
  APP_MISMATCH: { status: 401, title: 'API key does not belong to this app' },
  IP_NOT_ALLOWED: { status: 403, title: 'Client IP not allowed for this key' },
  ORIGIN_NOT_ALLOWED: { status: 403, title: 'Origin not allowed for this key' },
  INSUFFICIENT_SCOPE: { status: 403, title: 'Missing scope' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  PLATFORM_REQUIRED: { status: 400, title: 'X-Platform header required' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such path' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  BAD_REQUEST: { status: 400, title: 'Bad request' },
  INVALID_JSON: { status: 400, title: 'Malformed JSON body' },
  INVALID_RESOURCE_TYPE: { status: 409, title: 'Wrong data.type for this endpoint' },
  VALIDATION_FAILED: { status: 422, title: 'Validation failed' },
  CONFLICT: { status: 409, title: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  QUERY_TOO_DEEP: { status: 400, title: 'Query too deep' },
  QUERY_TOO_COMPLEX: { status: 400, title: 'Query too complex' },
  GRAPHQL_VALIDATION_FAILED: { status: 400, title: 'Invalid GraphQL operation' },
  BAD_USER_INPUT: { status: 400, title: 'Invalid input' },
  INTERNAL: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },

  // platform (document 1)
  PLATFORM_NOT_FOUND: { status: 404, title: 'Platform not found' },
  ACCOUNT_NOT_FOUND: { status: 404, title: 'Account not found' },
  APP_NOT_FOUND: { status: 404, title: 'App not found' },
  API_KEY_NOT_FOUND: { status: 404, title: 'API key not found' },
  CODE_ALREADY_EXISTS: { status: 409, title: 'Code already in use' },
  URL_ID_ALREADY_EXISTS: { status: 409, title: 'url_id already in use' },
  BLOCK_NOT_FOUND: { status: 404, title: 'Block not found' },
  BLOCK_LICENSE_NOT_FOUND: { status: 404, title: 'Block not licensed to this account' },
  BLOCK_NOT_PROVISIONED: { status: 404, title: 'Block not provisioned to this app' },
  BLOCK_NOT_LICENSED: { status: 422, title: 'Block not licensed to the account' },
  BLOCK_STILL_PROVISIONED: { status: 409, title: 'Block still provisioned to apps' },
  ACCESS_NOT_FOUND: { status: 404, title: 'User access not found' },
  ACCESS_ALREADY_EXISTS: { status: 409, title: 'User already has access with another role' },
  INVALID_STATE_TRANSITION: { status: 409, title: 'Illegal state transition' },
  // platform: subscriptions and billing
  SUBSCRIPTION_NOT_FOUND: { status: 404, title: 'Subscription not found' },
  SUBSCRIPTION_ALREADY_EXISTS: { status: 409, title: 'The account already has a live subscription' },
  INVALID_SUBSCRIPTION_TRANSITION: { status: 409, title: 'Move not allowed in the subscription state' },
  INVOICE_NOT_FOUND: { status: 404, title: 'Invoice not found' },
  INVOICE_NOT_DUE: { status: 409, title: 'The invoice is not due' },
  PLATFORM_NOT_EMPTY: { status: 409, title: 'Platform still has accounts' },
  API_KEY_CHANGED: { status: 409, title: 'API key changed concurrently' },
  DEPLOYMENT_MODEL_CONFLICT: { status: 409, title: 'Deployment model change conflicts with existing keys' },

  // products (document 3 part A)
  PRODUCT_NOT_FOUND: { status: 404, title: 'Product not found' },
  SKU_ALREADY_EXISTS: { status: 409, title: 'SKU already in use' },
  INVALID_PRICE: { status: 422, title: 'Invalid price' },
  CATEGORY_NOT_FOUND: { status: 404, title: 'Category not found' },
  COLLECTION_NOT_FOUND: { status: 404, title: 'Collection not found' },
  SLUG_ALREADY_EXISTS: { status: 409, title: 'Slug already in use' },

  // search (document 3 part B): statuses as the spec's table
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
  invalid_document_id: { status: 400, title: 'Invalid document id' },
  missing_document_id: { status: 400, title: 'Document without primary key value' },
  index_primary_key_no_candidate_found: { status: 400, title: 'Primary key could not be inferred' },
  index_primary_key_multiple_candidates_found: { status: 400, title: 'Several primary key candidates' },
  index_primary_key_already_exists: { status: 400, title: 'Index already has a primary key' },
  max_documents_exceeded: { status: 400, title: 'Document batch exceeds maximum size' },
  invalid_webhook_url: { status: 400, title: 'Webhook URL not allowed' },
  index_limit_exceeded: { status: 403, title: 'Index limit of the plan reached' },
  document_limit_exceeded: { status: 403, title: 'Document limit of the plan reached' },

  // ai (document 2)
  'usr-not-registered': { status: 404, title: 'User not registered in this tenant' },
  model_unavailable: { status: 503, title: 'AI model temporarily unavailable' },
  text_too_long: { status: 400, title: 'Input text exceeds the maximum length' },
  invalid_language: { status: 400, title: 'Language code not supported' },
  batch_not_found: { status: 404, title: 'Batch not found' },

  // platform: account services and data transfers (document 1)
  CREDENTIAL_NOT_FOUND: { status: 404, title: 'Credential not found' },
  CREDENTIAL_NAME_TAKEN: { status: 409, title: 'Credential name already in use in this account' },
  EXCHANGE_NOT_FOUND: { status: 404, title: 'Message-broker configuration not found' },
  EXCHANGE_NAME_TAKEN: { status: 409, title: 'Message-broker configuration name already in use in this account' },
  DETAILS_ALREADY_EXIST: { status: 409, title: 'Account details already exist (use PUT)' },
  UPLOAD_SIGNATURE_INVALID: { status: 403, title: 'Upload URL signature invalid' },
  UPLOAD_EXPIRED: { status: 410, title: 'Upload URL expired' },
  UPLOAD_NOT_FOUND: { status: 404, title: 'Upload not found' },
  INVALID_IMAGE: { status: 422, title: 'Not a supported image' },
  LOGO_NOT_FOUND: { status: 404, title: 'Logo not found' },
  DATA_TRANSFER_NOT_FOUND: { status: 404, title: 'Data transfer not found' },
  DATA_TRANSFER_EXPIRED: { status: 410, title: 'Data transfer expired' },
  DATA_TRANSFER_ALREADY_DECIDED: { status: 409, title: 'Data transfer already accepted or declined' },
  DATA_TRANSFER_NOT_ACCEPTED: { status: 409, title: 'Data transfer not accepted' },
  ACCESS_CODE_INVALID: { status: 401, title: 'Access code invalid, expired or already used' },
  ACCESS_TOKEN_INVALID: { status: 401, title: 'Access token invalid or expired' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_TABLE, code);
}

export function statusOf(code: string): number {
  return isErrorCode(code) ? ERROR_TABLE[code].status : 500;
}

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly opts: { parameter?: string; meta?: Record<string, unknown> } = {},
  ) {
    super(message ?? ERROR_TABLE[code].title);
    this.name = 'DomainError';
    this.status = ERROR_TABLE[code].status;
  }
}

/** The GraphQL form of a domain error: code, status and offending parameter in `extensions`. */
export function toGraphQLError(err: DomainError): GraphQLError {
  return new GraphQLError(err.message, {
    extensions: {
      code: err.code,
      status: err.status,
      ...(err.opts.parameter ? { parameter: err.opts.parameter } : {}),
      ...(err.opts.meta ? { meta: err.opts.meta } : {}),
      http: { status: err.status },
    },
  });
}
