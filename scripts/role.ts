// The one entry point of the container image (deploy/Containerfile): the process to run is named by
// the first argument or ROLE. Each role is the same entry point `npm run start:<role>` runs.
import { fileURLToPath } from 'node:url';

export const ROLES = {
  gateway: 'gateway/main',
  rest: 'rest-bridge/main',
  platform: 'subgraphs/platform/main',
  ai: 'subgraphs/ai/main',
  catalog: 'subgraphs/catalog/main',
  search: 'subgraphs/search/main',
  migrate: 'scripts/migrate',
  all: 'scripts/start-all',
} as const;

const role = process.argv[2] ?? process.env.ROLE;
if (!role || !(role in ROLES)) {
  process.stderr.write(`error: ROLE: ${role ? `"${role}" is not` : 'set it to'} one of ${Object.keys(ROLES).join(', ')}\n`);
  process.exit(1);
}
// .ts under the development loader, .js in the compiled build
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
await import(fileURLToPath(new URL(`../${ROLES[role as keyof typeof ROLES]}${ext}`, import.meta.url)));
