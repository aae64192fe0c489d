// Image build stage: remove from node_modules every package the lock file marks dev-only, offline
// (what `npm prune --omit=dev` does, without npm or a registry). Run from the project root.
import { readFileSync, rmSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let removed = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (path && entry.dev) {
    rmSync(path, { recursive: true, force: true });
    removed++;
  }
}
console.log(`prune-dev-deps: ${removed} dev-only packages removed`);
