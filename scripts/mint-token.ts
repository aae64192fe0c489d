// npm run -s mint-token -- [--sub <user id>] [--scope "<scopes>"] [--platform <code>] [--expires <seconds>]
// Prints an HS256 JWT signed with JWT_SECRET (or the development default).
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.js';
import { signJwt } from '../gateway/auth/jwt.js';

const { values } = parseArgs({
  options: {
    sub: { type: 'string', default: 'dev-user' },
    scope: { type: 'string', default: 'platform:admin platform:manage platform:read' },
    platform: { type: 'string' },
    expires: { type: 'string', default: '3600' },
  },
});
const cfg = loadConfig();
const now = Math.floor(Date.now() / 1000);
const expires = Number(values.expires);
if (!Number.isInteger(expires) || expires <= 0) {
  console.error('error: --expires must be a positive number of seconds');
  process.exit(2);
}
if (cfg.jwtSecretIsDefault) console.error('note: JWT_SECRET is not set; signing with the development default');
console.log(signJwt({ sub: values.sub!, scope: values.scope, iat: now, exp: now + expires, ...(values.platform ? { platform: values.platform } : {}) }, cfg.jwtSecret));
