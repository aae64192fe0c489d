// Subgraphs name an error's parameter in GraphQL terms (docs/architecture.md, "Names"); the REST
// bridge spells it for REST (rest-bridge/naming.ts restParameter). This reads every source file of
// subgraphs/ and lib/ and refuses a REST spelling (snake_case) where a parameter's name is written: a `parameter:`
// property, the default of a function parameter named `parameter`, and the argument a call passes
// to one (the functions of lib/ and subgraphs/ whose parameter is named `parameter`, found by name).
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { tsFiles, withSourceTree } from '../harness/source-tree.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Files whose parameter names are the client's own JSON keys, kept as written below a JSON value:
 * the search settings (Meilisearch's snake_case keys of the `settings` object).
 */
const JSON_KEY_FILES = ['subgraphs/search/indexes/index-settings.rules.ts', 'subgraphs/search/indexes/suggestion-settings.rules.ts'];

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+(\[\d*\])?(\.[a-zA-Z_]+)*$/;

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** By function name: the positions of its parameters named `parameter`, over every declaration of that name. */
function parameterPositions(files: string[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const note = (name: string | undefined, params: ts.NodeArray<ts.ParameterDeclaration>) => {
    params.forEach((p, i) => {
      if (!name || !ts.isIdentifier(p.name) || p.name.text !== 'parameter') return;
      if (!out.has(name)) out.set(name, new Set());
      out.get(name)!.add(i);
    });
  };
  for (const file of files) {
    const visit = (n: ts.Node): void => {
      if (ts.isFunctionDeclaration(n)) note(n.name?.text, n.parameters);
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) note(n.name.text, n.initializer.parameters);
      ts.forEachChild(n, visit);
    };
    visit(parse(file));
  }
  return out;
}

/** The string literals an expression can evaluate to (a literal, or either branch of a conditional). */
function literals(e: ts.Expression): ts.StringLiteralLike[] {
  if (ts.isStringLiteralLike(e)) return [e];
  if (ts.isConditionalExpression(e)) return [...literals(e.whenTrue), ...literals(e.whenFalse)];
  if (ts.isParenthesizedExpression(e)) return literals(e.expression);
  return [];
}

/** `file:line 'name'` for each parameter name written in REST spelling in `files`. */
function restSpellings(files: string[], positions: Map<string, Set<number>>, root: string): string[] {
  const found: string[] = [];
  for (const file of files) {
    const source = parse(file);
    const check = (e: ts.Expression | undefined) => {
      for (const s of e ? literals(e) : []) {
        if (SNAKE.test(s.text)) found.push(`${relative(root, file)}:${source.getLineAndCharacterOfPosition(s.getStart()).line + 1} '${s.text}'`);
      }
    };
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'parameter') check(n.initializer);
      if (ts.isParameter(n) && ts.isIdentifier(n.name) && n.name.text === 'parameter') check(n.initializer);
      if (ts.isCallExpression(n)) {
        const callee = ts.isIdentifier(n.expression) ? n.expression.text : ts.isPropertyAccessExpression(n.expression) ? n.expression.name.text : undefined;
        for (const i of (callee && positions.get(callee)) || []) check(n.arguments[i]);
      }
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return found;
}

function check(root: string, jsonKeyFiles: readonly string[]): string[] {
  const subgraphs = tsFiles(resolve(root, 'subgraphs'), ['migrations']);
  const lib = tsFiles(resolve(root, 'lib'));
  const scanned = [...lib, ...subgraphs].filter((f) => !jsonKeyFiles.includes(relative(root, f)));
  return restSpellings(scanned, parameterPositions([...lib, ...subgraphs]), root);
}

test('subgraphs and lib write parameter names in GraphQL terms, not in REST spelling', () => {
  expect(check(ROOT, JSON_KEY_FILES)).toEqual([]);
});

test('the check finds a REST spelling in each place a parameter name is written', () => {
  const files = {
    'lib/v.ts': "export function fail(parameter: string, message: string): never { throw new Error(message + parameter); }\nexport const oneOf = (v: string, list: string[], parameter: string) => v;",
    'subgraphs/x/a.ts': [
      "import { fail, oneOf } from '../../lib/v.js';",
      "fail('expires_at', 'expires_at must be in the future');",
      "fail('expiresAt', 'expires_at must be in the future');",
      "oneOf('a', ['a'], ok ? 'key_type' : 'keyType');",
      "const e = { parameter: 'url_id' };",
      "export function checkUrlId(v: string, parameter = 'url_id') { return v; }",
      "const table = 'product_counts';",
    ].join('\n'),
  };
  withSourceTree(files, (base) => {
    expect(check(base, [])).toEqual(["subgraphs/x/a.ts:2 'expires_at'", "subgraphs/x/a.ts:4 'key_type'", "subgraphs/x/a.ts:5 'url_id'", "subgraphs/x/a.ts:6 'url_id'"]);
  });
});
