// The Node options every process of the system starts with, written once: package.json's
// `config.nodeFlags` (`--experimental-async-context-frame`: AsyncLocalStorage without promise hooks,
// docs/performance.md item 25). npm scripts expand it as `$npm_package_config_nodeFlags`; code that
// spawns the system itself (the bench, the test harness) reads it here. Node refuses these options in
// NODE_OPTIONS, so each command line names them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** `root`: the project's directory (where package.json is) */
export function nodeFlags(root: string): string[] {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { config?: { nodeFlags?: string } };
  return (pkg.config?.nodeFlags ?? '').split(' ').filter(Boolean);
}
