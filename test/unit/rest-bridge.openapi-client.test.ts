// The generated OpenAPI document as tools see it: Redocly's linter (the structure against the
// OpenAPI 3.1 schema, the recommended rules, every example against its schema) passes offline, and
// a TypeScript client generated from it (openapi-typescript) type-checks code that uses its types.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { openApiDocument } from '../../scripts/openapi.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
const file = join(dir, 'openapi.json');
const doc = openApiDocument();

beforeAll(() => writeFileSync(file, JSON.stringify(doc)));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('redocly lint: no errors (structure, recommended rules, examples match their schemas)', async () => {
  const r = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e: { stdout: string; stderr: string }) => e);
  const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
  expect(errors.slice(0, 20)).toEqual([]);
  expect(report.totals.errors).toBe(0);
}, 120_000);

test('a client generated with openapi-typescript type-checks code using its request and response types', async () => {
  const types = astToString(await openapiTS(doc as never));
  writeFileSync(join(dir, 'api.ts'), types);
  writeFileSync(
    join(dir, 'client.ts'),
    `import type { paths } from './api.js';
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Op<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

type CreateProduct = Op<'/v1/products', 'post'>;
export const create: Json<NonNullable<CreateProduct extends { requestBody?: infer R } ? R : never>> = {
  data: { type: 'products', attributes: { name: 'Mug', sku: 'MUG-1', price: { amount: 1200, currency: 'EUR' } } },
};
type Product = Json<Op<'/v1/products/{id}', 'get'>['responses'][200]>;
export function skuOf(p: Product): string {
  return p.data.attributes.sku;
}
type Deletion = Json<NonNullable<Op<'/search/v1/indexes/{index_uid}/documents', 'delete'> extends { requestBody?: infer R } ? R : never>>;
export const ids: Deletion = { data: { type: 'document_deletions', attributes: { document_ids: ['a', 7] } } };
type Search = Json<NonNullable<Op<'/search/v1/indexes/{index_uid}/search', 'post'> extends { requestBody?: infer R } ? R : never>>;
export const byString: Search = { data: { type: 'search_queries', attributes: { query: 'mug', filter: 'price < 20' } } };
export const byArray: Search = { data: { type: 'search_queries', attributes: { filter: ['a = 1', ['b = 2', 'c = 3']] } } };
type NotFound = Json<Op<'/v1/products/{id}', 'get'>['responses'][404]>;
export const codeOf = (e: NotFound): string => e.errors[0].code;
// @ts-expect-error a SKU is a string
export const wrong: typeof create = { data: { type: 'products', attributes: { name: 'Mug', sku: 12 } } };
`,
  );
  const program = ts.createProgram([join(dir, 'client.ts')], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
}, 120_000);
