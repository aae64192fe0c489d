import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** package.json's version, read once (npm_package_version is only set under `npm run`). */
export const VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
