// Our registry mirror serves only this platform's binaries (other platforms' optional packages,
// e.g. @swc/core-darwin-arm64, answer 404), so `npm install` leaves them out of package-lock.json
// and `npm ci` then refuses the lock as out of sync. This adds each missing optional dependency as an
// optional lock entry (with the os/cpu it declares in its name), which npm ci accepts and skips on
// other platforms. Run after every `npm install` that changes the lock: node scripts/lockfile-optional.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const path = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(path, 'utf8'));
const pkgs = lock.packages;
const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openbsd', 'sunos', 'aix', 'netbsd', 'openharmony', 'wasm32'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'ppc', 'wasm32'];
let added = 0;
for (const [loc, meta] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = loc ? `${loc}/node_modules/${name}` : `node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (pkgs[base] || pkgs[hoisted]) continue;
    const parts = name.split('/').pop().split('-');
    const os = OS.filter((o) => parts.includes(o));
    const cpu = CPU.filter((c) => parts.includes(c) || (c === 'arm' && parts.some((p) => p.startsWith('arm') && p !== 'arm64')));
    pkgs[hoisted] = { version: String(version).replace(/^[\^~=]/, ''), optional: true, ...(os.length ? { os } : {}), ...(cpu.length ? { cpu } : {}) };
    added++;
  }
}
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`lockfile-optional: added ${added} optional entries`);
