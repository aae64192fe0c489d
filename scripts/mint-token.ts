// npm run -s mint-token -- [--sub <user id>] [--scope "<scopes>"] [--platform <code>] [--expires <seconds>]
// Prints an HS256 JWT signed with JWT_SECRET (or the development default), with the kid the gateway
// expects (JWT_KID), living at most as long as the gateway accepts (JWT_MAX_LIFETIME_SEC).
import { loadConfig } from '../lib/config.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { parseCli } from './cli-args.js';

const cfg = loadConfig();
const max = cfg.jwt.maxLifetimeSec;
const USAGE = `usage: npm run -s mint-token -- [--sub <user id>] [--scope "<scopes>"] [--platform <code>] [--expires <seconds>]
Prints a JWT for the platform paths (Authorization: Bearer <JWT>, with X-Platform: <code>) and the data room.
  --sub       the user id (default dev-user)
  --scope     space-separated scopes (default "platform:admin platform:manage platform:read")
  --platform  restrict the token to one platform code
  --expires   lifetime in seconds (default 3600; at most ${max}, JWT_MAX_LIFETIME_SEC, beyond which the gateway rejects it)
Signed with JWT_SECRET: the stack you call must run with the same one (both unset: the development default).`;
const { values } = parseCli(USAGE, {
  options: {
    sub: { type: 'string', default: 'dev-user' },
    scope: { type: 'string', default: 'platform:admin platform:manage platform:read' },
    platform: { type: 'string' },
    expires: { type: 'string', default: String(Math.min(3600, max)) },
    help: { type: 'boolean', short: 'h' },
  },
});
const now = Math.floor(Date.now() / 1000);
const expires = Number(values.expires);
if (!Number.isInteger(expires) || expires <= 0) {
  console.error('error: --expires must be a positive number of seconds');
  process.exit(2);
}
if (expires > max) {
  console.error(`error: --expires ${expires} is longer than the gateway accepts (JWT_MAX_LIFETIME_SEC=${max}): use at most ${max}`);
  process.exit(2);
}
if (cfg.jwtSecretIsDefault) console.error('note: JWT_SECRET is not set; signing with the development default');
const kid = cfg.jwt.currentKid;
console.log(signJwt({ sub: values.sub!, scope: values.scope, iat: now, exp: now + expires, ...(values.platform ? { platform: values.platform } : {}) }, cfg.jwtSecret, kid === 'k1' ? undefined : kid));
