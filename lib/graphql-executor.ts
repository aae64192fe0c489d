// The subgraphs' GraphQL executor: graphql-js's execute behind a cache of parsed and validated
// documents, with the shared error formatter. Subgraphs are called only by the gateway (signed
// requests, a few dozen distinct operations), so Apollo Server's per-request pipeline (content
// negotiation, request hashing, plugin dispatch, the incremental-delivery polyfill) is work a
// subgraph request does not need; docs/performance.md has the profile. What a caller sees is what
// Apollo Server answered: `{ data, errors }` with the same formatted errors, 400 for request errors
// (unparsable, invalid, unknown operation, variables that do not coerce), the context's own HTTP
// status when it refuses the request.
import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { fieldArgsFastPath } from './graphql-field-args.js';

type Formatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export interface ExecutorAnswer {
  status: number;
  text: string;
  /**
   * A successful answer without errors, as a value: an in-process caller that only hands the data on
   * (the gateway's single-fetch pass-through) takes it instead of parsing `text`, which is then
   * serialised only if someone reads it (HTTP, or another caller of a shared fetch).
   */
  value?: { data: unknown };
}

/** `{ data }` as an answer whose text is written when first read. */
function dataAnswer(value: { data: unknown }): ExecutorAnswer {
  let text: string | undefined;
  return {
    status: 200,
    value,
    get text() {
      return (text ??= JSON.stringify(value));
    },
  };
}

/** An answer that never reached execution: `{ errors: [{ message, extensions: { code, status } }] }`. */
export function errorAnswer(status: number, code: string, message: string): ExecutorAnswer {
  return { status, text: JSON.stringify({ errors: [{ message, extensions: { code, status } }] }) };
}

interface Prepared {
  document?: DocumentNode;
  errors?: readonly GraphQLError[];
  /** the code request errors carry (parse or validation) */
  code?: string;
}

/** How many distinct documents stay prepared (the gateway sends a bounded set of plans' fetches). */
const CACHE_SIZE = 2000;

export class GraphQLExecutor {
  private readonly prepared = new Map<string, Prepared>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly formatError: Formatter,
  ) {
    fieldArgsFastPath(); // fields without arguments allocate nothing for them (lib/graphql-field-args.ts)
  }

  /**
   * Run a POST body as its text arrived (over HTTP or in process): over `limit` bytes 413, malformed
   * JSON 400 INVALID_JSON, else `run`. `body` is the parsed body (for the request's metrics label).
   */
  async runText<C>(text: string, makeContext: () => Promise<C>, limit: number): Promise<{ answer: ExecutorAnswer; body?: unknown }> {
    if (text.length > limit / 4 && Buffer.byteLength(text) > limit) return { answer: errorAnswer(413, 'PAYLOAD_TOO_LARGE', `request body exceeds ${limit} bytes`) };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { answer: errorAnswer(400, 'INVALID_JSON', 'Malformed JSON body') };
    }
    return { answer: await this.run(body, makeContext), body };
  }

  /**
   * Run one request body ({ query, variables, operationName }) with the context `makeContext` gives.
   * `queriesOnly`: a GET may not run a mutation (as Apollo Server refuses it).
   */
  async run<C>(body: unknown, makeContext: () => Promise<C>, queriesOnly = false): Promise<ExecutorAnswer> {
    const req = (body && typeof body === 'object' ? body : {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof req.query !== 'string' || !req.query) return this.requestError([new GraphQLError('GraphQL operations must contain a non-empty `query`.')], ApolloServerErrorCode.BAD_REQUEST);
    if (req.variables != null && (typeof req.variables !== 'object' || Array.isArray(req.variables))) {
      return this.requestError([new GraphQLError('`variables` in a POST body should be an object.')], ApolloServerErrorCode.BAD_REQUEST);
    }
    const operationName = typeof req.operationName === 'string' ? req.operationName : undefined;
    // the context first, as Apollo Server does: an unsigned request is refused before its query is read
    let contextValue: C;
    try {
      contextValue = await makeContext();
    } catch (e) {
      const err = e instanceof GraphQLError ? e : new GraphQLError('Context creation failed', { originalError: e as Error });
      const http = (err.extensions?.http as { status?: number } | undefined)?.status;
      return { status: http ?? 500, text: JSON.stringify({ errors: this.format([err]) }) };
    }
    const prep = this.prepare(req.query);
    if (!prep.document) return this.requestError(prep.errors ?? [], prep.code!);
    if (queriesOnly && prep.document.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation !== 'query' && (!operationName || d.name?.value === operationName))) {
      return { status: 405, text: JSON.stringify({ errors: this.format([new GraphQLError('Only queries may be sent with GET')], ApolloServerErrorCode.BAD_REQUEST) }) };
    }
    const result = await execute({ schema: this.schema, document: prep.document, variableValues: req.variables as Record<string, unknown> | undefined, operationName, contextValue });
    if (!('data' in result) || result.data === undefined) {
      // no execution happened: the operation could not be picked or its variables did not coerce
      const errors = result.errors ?? [];
      const code = errors.some((e) => e.message.startsWith('Variable "$')) ? ApolloServerErrorCode.BAD_USER_INPUT : ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE;
      return this.requestError(errors, code);
    }
    if (!result.errors?.length) return dataAnswer({ data: result.data });
    return { status: 200, text: JSON.stringify({ data: result.data, errors: this.format(result.errors) }) };
  }

  private prepare(query: string): Prepared {
    const hit = this.prepared.get(query);
    if (hit) return hit;
    let prep: Prepared;
    try {
      const document = parse(query);
      const errors = validate(this.schema, document);
      prep = errors.length ? { errors, code: ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED } : { document };
    } catch (e) {
      prep = { errors: [e instanceof GraphQLError ? e : new GraphQLError((e as Error).message)], code: ApolloServerErrorCode.GRAPHQL_PARSE_FAILED };
    }
    // only valid documents are kept: a stream of bad ones cannot evict the good
    if (prep.document) {
      if (this.prepared.size >= CACHE_SIZE) this.prepared.delete(this.prepared.keys().next().value!);
      this.prepared.set(query, prep);
    }
    return prep;
  }

  private requestError(errors: readonly GraphQLError[], code: string): ExecutorAnswer {
    return { status: 400, text: JSON.stringify({ errors: this.format(errors, code) }) };
  }

  /** Each error as Apollo Server formats it (its code where it has none), then through the shared formatter. */
  private format(errors: readonly GraphQLError[], code?: string): GraphQLFormattedError[] {
    return errors.map((e) => {
      const json = e.toJSON();
      const given = json.extensions?.code;
      const { http: _http, ...rest } = json.extensions ?? {};
      const formatted: GraphQLFormattedError = { ...json, extensions: { ...rest, code: typeof given === 'string' ? given : (code ?? ApolloServerErrorCode.INTERNAL_SERVER_ERROR) } };
      return this.formatError(formatted, e);
    });
  }
}
