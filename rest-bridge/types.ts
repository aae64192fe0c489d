// The shape of one row of the bridge's route table. A row is data, not code paths: the server
// runs every row through the same pipeline (auth presence, body envelope, operation, rendering),
// and openapi.ts documents every row from the same fields.
//
// How to add a route (fields are never listed here: they come from the GraphQL schema):
//  1. Write the operation in operations/<service>[-<part>].graphql, named after the route, taking
//     the body as one input object: `mutation CreateWidget($input: CreateWidgetInput!) { createWidget(input: $input) { ...WidgetFields } }`,
//     with `fragment WidgetFields on Widget @allFields { id }`: every scalar and value-object field of
//     Widget is selected when the operations load (fragments.ts); relations are written explicitly.
//  2. Add the row: `body: { type: 'widgets', input: 'input' }` and `variables: (r) => ({ input: r.attributes })`
//     (plus path params). The accepted attributes are CreateWidgetInput's fields in snake_case
//     (naming.ts): `compareAt` is `compare_at`; JSON/JSONObject fields are free-form (keys kept),
//     input-object fields structured (keys converted); non-null fields are required (422 naming them).
//     Arguments-style mutations: `body: { type, args: ['accessToken', 'reason'] }` (r.attributes.accessToken…).
//  3. Render with `resource('widgets', d.createWidget)`: JSON/JSONObject values of the result keep their
//     keys automatically (derive.ts marks them from the operation's selection); no opaque lists.
//  4. OpenAPI request and response schemas follow from the same types; nothing to write.
// A row whose body does not fit its operation (no such variable, not an input object) stops start-up.
import type { ErrorCode } from '../lib/errors.js';
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
 * A route's JSON:API body, declared in GraphQL terms: the attributes, their types, which are
 * required and which are free-form JSON are derived from the composed schema (derive.ts), never
 * listed by hand. Exactly one source:
 *  - `input: 'input'`: the attributes are the fields of the input object the operation takes as `$input`
 *    (`mutation CreateProduct($input: CreateProductInput!)`): a field added to the input is accepted at once;
 *  - `args: ['synonyms', 'oneWaySynonyms']`: each named operation variable is one attribute
 *    (arguments-style mutations);
 *  - `fieldsOf: 'IndexSettings'`: the operation takes a free-form JSON object whose keys are the fields
 *    of that GraphQL type; top-level keys convert, values pass as written.
 */
export interface BodySpec {
  /** the JSON:API `data.type` the request carries (409 INVALID_RESOURCE_TYPE on another, unless `anyType`) */
  type: string;
  /**
   * The document names no request type for this endpoint (an action body: render, execute, agent
   * context): any `data.type` is taken. `inData` bodies are always so. A plain JSON object of the
   * attributes (no `data` member) is taken on every route (jsonapi.parseRequest).
   */
  anyType?: boolean;
  input?: string;
  args?: readonly string[];
  fieldsOf?: string;
  /** with `fieldsOf`: only these of its fields (REST names) are attributes (one setting's route takes that setting alone) */
  pick?: readonly string[];
  /**
   * `args` (or `fieldsOf`) attributes the route or service requires (and names in its 422) although
   * their variable is nullable; documentation only, added to the derived required list.
   */
  required?: readonly string[];
  /**
   * The fields sit right under `data` (`{ "data": { "product_ids": [...] } }`), as the spec writes
   * some bodies; `data.type` is then optional (checked when present). See jsonapi.parseEnvelope.
   */
  inData?: boolean;
}

/**
 * A derived attribute type. `json` is a free-form value passed through with its keys exactly as the
 * client wrote them (product attributes, metadata; a JSON or JSONObject scalar in GraphQL); an
 * `object` is a structured value (an input object) whose keys convert snake_case → camelCase.
 */
export type AttrSpec =
  | { kind: 'scalar'; type: 'string' | 'integer' | 'number' | 'boolean'; format?: 'date-time'; enum?: readonly string[] }
  /** `schema`: what the value is known to be (a JSONObject is an object; json-shapes.ts), for OpenAPI only */
  | { kind: 'json'; schema?: Readonly<Record<string, unknown>> }
  | { kind: 'list'; items: AttrSpec }
  | { kind: 'object'; fields: AttrFields };

export interface AttrField {
  /** the GraphQL name the attribute becomes */
  graphql: string;
  spec: AttrSpec;
  /** non-null in GraphQL without a default: GraphQL coercion refuses its absence (422 naming it) */
  required: boolean;
  description?: string;
}

/** attributes by REST name (snake_case, see naming.ts) */
export type AttrFields = Record<string, AttrField>;

/** A BodySpec resolved against the schema. */
export interface ResolvedBody {
  type: string;
  fields: AttrFields;
  /** attributes the answered resource has but the body does not take: ignored when sent back (jsonapi.toGraphQLInput) */
  readOnly?: ReadonlySet<string>;
  /**
   * The input's field that keeps attributes the API documents do not list (lib/extra-attributes.ts):
   * set when the input has one; unknown attributes then go there instead of being refused.
   */
  extra?: string;
}

export interface QueryParamSpec {
  name: string;
  type: 'integer' | 'string' | 'boolean';
  description?: string;
  /**
   * The GraphQL argument the parameter feeds, where its name is not the naming rule's (a JSON:API
   * filter taken as a plain argument: `filter[type]` → `type`): an error naming the argument names
   * the parameter (naming.ts restParameter).
   */
  graphql?: string;
}

/** What a route's `variables` function sees. */
export interface RouteInput {
  params: Record<string, string>;
  query: QueryParams;
  /** body attributes with their GraphQL names (derived from the BodySpec); {} for routes without a body */
  attributes: Record<string, unknown>;
  /** upload routes: the object the raw body was stored as (see RawUploadSpec); multipart routes: the file part */
  upload?: UploadReference;
  /** multipart routes: the text fields, by GraphQL name, typed (see MultipartSpec) */
  form?: Record<string, unknown>;
  /** multipart routes: the signed upload token the grant operation answered */
  uploadToken?: string;
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

export interface FormFieldSpec {
  /** the GraphQL name the field becomes in `input.form` */
  graphql: string;
  type: 'string' | 'integer' | 'boolean';
  description?: string;
}

/**
 * A route that takes multipart/form-data: one file part and text fields (rest-bridge/multipart.ts).
 * Before the body is read, `grant.operation` runs with the caller's credentials and answers a signed
 * upload token (checked like a presigned URL's, purpose included); the file part then streams into
 * the object store under the grant's key (size cap, media type from the first bytes, SHA-256), and
 * the route's operation receives `input.form` and `input.upload`, never the bytes.
 */
export interface MultipartSpec extends RawUploadSpec {
  /** the form field carrying the file */
  file: string;
  /** true when the route also runs without a file (input.upload is then undefined) */
  optionalFile?: boolean;
  /** the text fields, by form name (snake_case); any other field is refused (422 naming it) */
  fields: Record<string, FormFieldSpec>;
  grant: {
    operation: string;
    variables(input: RouteInput): Record<string, unknown>;
    /** the signed upload token in the grant operation's data */
    token(data: Record<string, any>): string;
  };
  /** the code a refused file answers (wrong type, empty), with meta.reason; UNSUPPORTED_MEDIA_TYPE / BAD_REQUEST otherwise */
  refusedCode?: ErrorCode;
}

/**
 * A non-JSON response (an image), built from the operation's data: the bytes themselves, or the
 * key of an object in the store, which the bridge streams from there (no bytes through the gateway).
 */
/** `objectRef`: a stored object's key as the service sealed it (lib/object-ref.ts), opened with the bridge's INTERNAL_SECRET */
export type RawResponse = { contentType: string; headers?: Record<string, string> } & ({ body: Buffer } | { objectRef: string });

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

/**
 * A result the document writes with its members right under `data` (`data.suggestions`), not as a
 * resource's attributes; `type` and `id` still say what it is.
 */
export interface FlatData {
  id: string;
  type: string;
  [member: string]: unknown;
}

export interface JsonApiDocument {
  data: ResourceObject | ResourceObject[] | FlatData;
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
  /** OpenAPI's operationId where several routes share one operation (the per-setting routes); `operation` otherwise */
  operationId?: string;
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
  /** multipart/form-data route (see MultipartSpec) */
  multipart?: MultipartSpec;
  /** answer with raw bytes instead of a JSON:API document */
  raw?(data: Record<string, any>, input: RouteInput): RawResponse;
  /** requests per minute per API key for this endpoint (the service's limits table); 429 with Retry-After beyond */
  rateLimit?: number;
  /**
   * The scope the route needs, when the service documents one per endpoint (the platform's scope
   * table). The subgraph enforces it; this field documents it and drives the security suite.
   */
  scope?: string;
}
