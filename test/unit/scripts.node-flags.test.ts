import { resolve } from 'node:path';
import { nodeFlags } from '../../scripts/node-flags.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('the system Node options (package.json config.nodeFlags)', () => {
  test('are read from package.json', () => {
    expect(nodeFlags(ROOT)).toContain('--experimental-async-context-frame');
  });

  test('npm test runs jest with them (the npm script expands $npm_package_config_nodeFlags)', () => {
    expect(process.execArgv).toEqual(expect.arrayContaining(nodeFlags(ROOT)));
  });
});
