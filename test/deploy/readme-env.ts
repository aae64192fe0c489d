// The variables of the README's Environment table, as the deployment manifests must cover them:
// every backticked NAME in a row's first column (`NODE_ENV=production` → NODE_ENV), the `*_PORT` and
// `*_URL` wildcards expanded to the roles they stand for, `JWT_KID` (named in JWT_SECRET's row) and
// the `SEARCH_*` row's named members (its other settings keep their defaults: docs/search.md).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const SUBGRAPHS = ['PLATFORM', 'AI', 'CATALOG', 'SEARCH'];

export function readmeEnvironmentVariables(): string[] {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Environment\n')[1]?.split('\n## ')[0];
  if (!section) throw new Error('README.md has no "## Environment" section');
  const names = new Set<string>(['JWT_KID']);
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const first = line.split(' | ')[0];
    for (const [, token] of first.matchAll(/`([^`]+)`/g)) {
      const name = token.split('=')[0];
      if (name === '*_PORT' || name === '*_URL') for (const s of SUBGRAPHS) names.add(`${s}${name.slice(1)}`);
      else if (/^[A-Z][A-Z0-9_]*[A-Z0-9]$/.test(name)) names.add(name);
    }
  }
  return [...names].sort();
}
