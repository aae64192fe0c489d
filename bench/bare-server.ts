// The ceiling of a cached answer on this machine: a bare node:http server that reads each request's
// body and answers fixed bytes with fixed headers in one writeHead, nothing else (no routing, no
// authentication, no Redis). bench/throughput.bench.ts drives it with the same clients as the
// gateway's cache hit. Env: BARE_PORT, BARE_BODY (the answer), BARE_HEADERS (JSON object).
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BARE_BODY ?? '{}', 'utf8');
const headers = { ...(JSON.parse(process.env.BARE_HEADERS ?? '{}') as Record<string, string>), 'content-length': String(body.length) };
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BARE_PORT), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => process.exit(0));
