// Reading an uploaded manifest of trusted operations, in the two formats clients' build tools write:
// Apollo Client's persisted-query manifest ({format: "apollo-persisted-query-manifest", version: 1,
// operations: [{id, name, type, body}]}) and GraphQL Codegen's client preset persisted-documents.json
// ({"<hash>": "<document>"}). Pure: no database, no GraphQL schema (the gateway validates the
// documents against the supergraph when they run). Errors name the offending entry.
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { fail } from '../validation.js';

export const OPERATION_TYPES = ['query', 'mutation', 'subscription'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

export interface ManifestOperation {
  /** the id clients send (extensions.persistedQuery.sha256Hash, or documentId) */
  id: string;
  name: string | null;
  type: OperationType;
  body: string;
}

/** Bounds of one upload (README "Registered operations") */
export const MANIFEST_LIMITS = { maxOperations: 1000, maxBodyChars: 100_000, maxTokens: 20_000 } as const;
/** an id is a hash in hex or base64url, optionally prefixed by its algorithm (`sha256:`) */
const ID_PATTERN = /^[A-Za-z0-9_:.=+/-]{8,140}$/;
export const APOLLO_MANIFEST_FORMAT = 'apollo-persisted-query-manifest';

export function readManifest(manifest: unknown): ManifestOperation[] {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) fail('manifest', 'manifest must be a JSON object: an Apollo persisted-query manifest or a GraphQL Codegen persisted-documents map');
  const m = manifest as Record<string, unknown>;
  const entries: { id: unknown; name?: unknown; type?: unknown; body: unknown; at: string }[] =
    'format' in m || 'operations' in m ? apolloEntries(m) : Object.entries(m).map(([id, body]) => ({ id, body, at: `manifest.${id}` }));
  if (entries.length === 0) fail('manifest', 'manifest lists no operation');
  if (entries.length > MANIFEST_LIMITS.maxOperations) fail('manifest', `at most ${MANIFEST_LIMITS.maxOperations} operations per upload (got ${entries.length})`);
  const seen = new Map<string, string>();
  return entries.map((e) => {
    if (typeof e.id !== 'string' || !ID_PATTERN.test(e.id)) fail(`${e.at}.id`, 'an operation id is its hash: 8-140 characters of [A-Za-z0-9_:.=+/-]');
    if (typeof e.body !== 'string' || !e.body.trim()) fail(`${e.at}.body`, 'the operation body must be a non-empty GraphQL document');
    if (e.body.length > MANIFEST_LIMITS.maxBodyChars) fail(`${e.at}.body`, `the operation body is longer than ${MANIFEST_LIMITS.maxBodyChars} characters`);
    const op = operationOf(e.body, `${e.at}.body`);
    const type = op.operation as OperationType;
    if (e.type !== undefined && e.type !== type) fail(`${e.at}.type`, `type says ${String(e.type)} but the document is a ${type}`);
    const name = typeof e.name === 'string' && e.name ? e.name : (op.name?.value ?? null);
    const prior = seen.get(e.id);
    if (prior !== undefined && prior !== e.body) fail(`${e.at}.id`, `id ${e.id} is listed twice with different bodies`);
    seen.set(e.id, e.body);
    return { id: e.id, name, type, body: e.body };
  });
}

function apolloEntries(m: Record<string, unknown>) {
  if (m.format !== APOLLO_MANIFEST_FORMAT) fail('manifest.format', `format must be "${APOLLO_MANIFEST_FORMAT}"`);
  if (m.version !== 1) fail('manifest.version', 'version must be 1');
  if (!Array.isArray(m.operations)) fail('manifest.operations', 'operations must be a list of {id, name, type, body}');
  return m.operations.map((o: unknown, i: number) => {
    const at = `manifest.operations[${i}]`;
    if (!o || typeof o !== 'object') fail(at, 'each operation must be an object {id, name, type, body}');
    const r = o as Record<string, unknown>;
    return { id: r.id, name: r.name, type: r.type, body: r.body, at };
  });
}

/** The document's one operation (fragments beside it allowed). */
function operationOf(body: string, parameter: string): OperationDefinitionNode {
  let doc;
  try {
    doc = parse(body, { maxTokens: MANIFEST_LIMITS.maxTokens });
  } catch (e) {
    fail(parameter, `not a GraphQL document: ${(e as Error).message}`);
  }
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1) fail(parameter, `a registered document holds exactly one operation (found ${ops.length})`);
  return ops[0];
}
