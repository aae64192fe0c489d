// JSON-lines logger. Secrets never reach a log line: values that look like API keys, bearer
// tokens or JWTs are masked before writing, whatever field they sit in.
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

const SECRET_PATTERNS: RegExp[] = [
  /\b(pk|sk)_(test|live)_(sh|ent|byok)_[A-Za-z0-9_-]+/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]+=*/gi,
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  // account services: app webhook secrets, data-transfer access tokens, presigned upload URLs
  /\bwhsec_[A-Za-z0-9]+/g,
  /\bdtt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  /\/uploads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
];

export function redact(text: string): string {
  let out = text;
  for (const re of SECRET_PATTERNS) out = out.replace(re, (m) => `${m.slice(0, 8)}…[redacted]`);
  return out;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(
  base: Record<string, unknown>,
  level: Level | 'silent' = (process.env.LOG_LEVEL as Level) || 'info',
): Logger {
  const write = (l: Level, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    const line = JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...base, ...fields }, (_k, v) =>
      v instanceof Error ? { name: v.name, message: v.message } : v,
    );
    (l === 'error' || l === 'warn' ? process.stderr : process.stdout).write(redact(line) + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (f) => createLogger({ ...base, ...f }, level),
  };
}
