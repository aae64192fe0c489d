// The subgraphs' GraphQL executor: operations compiled by graphql-jit (graphql-js's execute with
// SUBGRAPH_JIT=0) behind a cache of parsed, validated and compiled documents, with the shared error
// formatter. Subgraphs are called only by the gateway (signed
// requests, a few dozen distinct operations), so Apollo Server's per-request pipeline (content
// negotiation, request hashing, plugin dispatch, the incremental-delivery polyfill) is work a
// subgraph request does not need; docs/performance.md has the profile. What a caller sees is what
// Apollo Server answered: `{ data, errors }` with the same formatted errors, 400 for request errors
// (unparsable, invalid, unknown operation, variables that do not coerce), the context's own HTTP
// status when it refuses the request.
import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type Formatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export interface ExecutorAnswer {
  status: number;
  text: string;
}

/** An answer that never reached execution: `{ errors: [{ message, extensions: { code, status } }] }`. */
export function errorAnswer(status: number, code: string, message: string): ExecutorAnswer {
  return { status, text: JSON.stringify({ errors: [{ message, extensions: { code, status } }] }) };
}

interface Prepared {
  document?: DocumentNode;
  /** the document compiled per operation name ('' for the only one); null: graphql-js runs it */
  compiled?: Map<string, CompiledQuery | null>;
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
    /** jit: run operations compiled by graphql-jit (default); false: graphql-js's execute */
    private readonly opts: { jit?: boolean } = {},
  ) {}

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
    const compiled = this.opts.jit === false ? null : this.compiled(prep, operationName);
    const variableValues = req.variables as Record<string, unknown> | undefined;
    const result = compiled
      ? await compiled.query(undefined, contextValue, variableValues ?? {})
      : await execute({ schema: this.schema, document: prep.document, variableValues, operationName, contextValue });
    if (!('data' in result) || result.data === undefined) {
      // no execution happened: the operation could not be picked or its variables did not coerce
      const errors = result.errors ?? [];
      const code = errors.some((e) => e.message.startsWith('Variable "$')) ? ApolloServerErrorCode.BAD_USER_INPUT : ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE;
      return this.requestError(errors, code);
    }
    const out: { data: unknown; errors?: GraphQLFormattedError[] } = { data: result.data };
    if (result.errors?.length) out.errors = this.format(result.errors);
    return { status: 200, text: JSON.stringify(out) };
  }

  /**
   * The operation compiled to JavaScript by graphql-jit (once per document and operation name): the
   * same resolvers, coercion and errors as graphql-js's execute, without its per-field interpretation
   * of the document (the larger part of a page of 100 products' CPU). An operation it cannot compile
   * (an unknown operation name) runs through graphql-js, which answers its error.
   */
  private compiled(prep: Prepared, operationName: string | undefined): CompiledQuery | null {
    prep.compiled ??= new Map();
    const key = operationName ?? '';
    let c = prep.compiled.get(key);
    if (c === undefined) {
      const out = compileQuery(this.schema, prep.document!, operationName, { disablingCapturingStackErrors: true });
      c = isCompiledQuery(out) ? out : null;
      prep.compiled.set(key, c);
    }
    return c;
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
