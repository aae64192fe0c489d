// Raw-body routes (PUT to a presigned upload URL). The order matters: the route's authorize()
// checks the URL's signature and expiry before a byte of the body is read, so a forged or stale
// URL costs us nothing; then the body is read up to the signed limit (413 past it) and sent to the
// gateway in order, one operation call per chunk — the bridge still talks to nothing but the
// gateway, and no call exceeds the gateway's 1 MiB JSON limit.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DomainError } from '../lib/errors.js';
import { BodyTooLargeError, readBody } from '../lib/http.js';
import type { CallerInfo, GatewayClient, GatewayOutcome } from './gateway-client.js';
import type { Operation } from './operations.js';
import type { Route, RouteInput } from './types.js';

export interface UploadDeps {
  gateway: Pick<GatewayClient, 'execute'>;
  operation: Operation;
  caller: CallerInfo;
  uploadSecret: string;
}

/** Split `body` into the route's chunks (at least one, so an empty body still reaches the service). */
export function chunksOf(body: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) out.push(body.subarray(i, i + size));
  return out.length ? out : [Buffer.alloc(0)];
}

export async function executeUpload(route: Route, req: IncomingMessage, input: RouteInput, deps: UploadDeps): Promise<GatewayOutcome> {
  const spec = route.upload!;
  let limit: number;
  try {
    limit = Math.min(spec.authorize(input, { uploadSecret: deps.uploadSecret }).maxBytes, spec.maxBytes);
  } catch (e) {
    req.resume();
    throw e;
  }
  let body: Buffer;
  try {
    body = await readBody(req, limit);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw new DomainError('PAYLOAD_TOO_LARGE', `This upload takes at most ${limit} bytes`);
    throw e;
  }
  if (body.length === 0) throw new DomainError('BAD_REQUEST', 'The upload body is empty: PUT the file bytes');
  const sha256 = createHash('sha256').update(body).digest('hex');
  const chunks = chunksOf(body, spec.chunkBytes);
  let outcome: GatewayOutcome | undefined;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = { index, data: chunks[index].toString('base64'), final: index === chunks.length - 1, totalBytes: body.length, sha256 };
    outcome = await deps.gateway.execute(deps.operation, route.variables({ ...input, chunk }), deps.caller);
    if (outcome.kind !== 'data') return outcome;
  }
  return outcome!;
}
