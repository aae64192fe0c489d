// The shape of one row of the bridge's route table. A row is data, not code paths: the server
// runs every row through the same pipeline (auth presence, body envelope, operation, rendering),
// and openapi.ts documents every row from the same fields.
import type { MediaType } from '../lib/media-type.js';
import type { StoredUpload } from '../lib/upload-token.js';
import type { QueryParams } from './query.js';

export type Service = 'platform' | 'products' | 'search' | 'ai';

/**
 * Which credentials a route needs. The gateway does the real checks; the bridge only answers 401
 * early when none of them is present at all, and OpenAPI lists them.
 */
export type AuthMode = 'jwt+platform' | 'apiKey' | 'apiKey+jwt' | 'none';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Attribute types of a request body. `json` is a free-form object passed through with its keys
 * exactly as the client wrote them (product attributes, metadata, index settings); an object spec
 * with `properties` is a structured value whose keys are converted snake_case → camelCase.
 */
export type AttrType = 'string' | 'integer' | 'number' | 'boolean' | 'datetime' | 'string[]' | 'json';
export interface ObjectSpec {
  properties: Record<string, AttrSpec>;
  required?: string[];
}
export type AttrSpec = AttrType | ObjectSpec;

export interface BodySpec {
  /** the JSON:API `data.type` the request must carry (409 INVALID_RESOURCE_TYPE otherwise) */
  type: string;
  /** accepted attributes, snake_case as the REST client writes them; others are ignored */
  attributes: Record<string, AttrSpec>;
  /** documentation only: GraphQL non-null input fields enforce presence (422 with the parameter) */
  required?: string[];
}

export interface QueryParamSpec {
  name: string;
  type: 'integer' | 'string' | 'boolean';
  description?: string;
}

/** What a route's `variables` function sees. */
export interface RouteInput {
  params: Record<string, string>;
  query: QueryParams;
  /** body attributes, camelCased per the BodySpec; {} for routes without a body */
  attributes: Record<string, unknown>;
  /** upload routes: the object the raw body was stored as (see RawUploadSpec) */
  upload?: UploadReference;
}

/** What an upload route's mutation receives (with the `:token` path parameter): the stored object, sealed by the bridge's receipt. */
export interface UploadReference extends StoredUpload {
  /** HMAC over the upload id and the stored object (lib/upload-token.ts) */
  receipt: string;
}

/**
 * A route that takes a raw (non-JSON) body: PUT to a presigned upload URL whose token is the
 * `:token` path parameter. Before a byte is read, the token's signature, expiry and purpose are
 * checked (no database, no gateway call). The body then streams into the object store under the
 * grant's key: the size cap is enforced as bytes arrive (413), the media type is decided from the
 * first bytes (415 unless listed in `types`), and the SHA-256 is computed on the way. The route's
 * operation then receives the stored object's reference (`input.upload`), never the bytes.
 */
export interface RawUploadSpec {
  /** the grants this route takes (UploadGrant.purpose) */
  purpose: string;
  /** the route's cap; a grant may sign a lower one */
  maxBytes: number;
  /** media types accepted, decided from the body's first bytes */
  types: readonly MediaType[];
}

/**
 * A non-JSON response (an image), built from the operation's data: the bytes themselves, or the
 * key of an object in the store, which the bridge streams from there (no bytes through the gateway).
 */
export type RawResponse = { contentType: string; headers?: Record<string, string> } & ({ body: Buffer } | { objectKey: string });

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

export interface JsonApiDocument {
  data: ResourceObject | ResourceObject[];
  meta?: Record<string, unknown>;
}

export interface Route {
  method: HttpMethod;
  /** `/accounts/:url_id/apps`: `:name` segments become `params.name` */
  path: string;
  service: Service;
  auth: AuthMode;
  /** a named operation in operations/<service>.graphql, named after the route (CreateProduct) */
  operation: string;
  summary: string;
  /** present when the route takes a JSON:API body */
  body?: BodySpec;
  query?: QueryParamSpec[];
  variables(input: RouteInput): Record<string, unknown>;
  result(data: Record<string, any>, input: RouteInput): JsonApiDocument;
  /** success status (200, 201) */
  status: number;
  /** a success status that depends on the result (idempotent creates: 201 created, 200 already there); `status` otherwise */
  statusOf?(data: Record<string, any>): number;
  /** the `data.type` of the response, for OpenAPI */
  responseType: string;
  /** true when `data` is an array */
  list?: boolean;
  /** raw-body route (see RawUploadSpec) */
  upload?: RawUploadSpec;
  /** answer with raw bytes instead of a JSON:API document */
  raw?(data: Record<string, any>, input: RouteInput): RawResponse;
  /**
   * The scope the route needs, when the service documents one per endpoint (the platform's scope
   * table). The subgraph enforces it; this field documents it and drives the security suite.
   */
  scope?: string;
}
