// Raw-body routes (PUT to a presigned upload URL). The order matters: the token's signature,
// expiry and purpose are checked before a byte of the body is read, so a forged or stale URL costs
// us nothing; then the body streams through the UploadInspector (size cap, media type from the
// first bytes, SHA-256) into the object store under the grant's key; only then does the route's
// mutation run, with a reference to the stored object and the bridge's receipt. A refused body
// leaves nothing in the store, nor does an upload whose mutation fails.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../lib/errors.js';
import type { ObjectStore } from '../lib/object-store.js';
import { openObjectRef } from '../lib/object-ref.js';
import { signUploadReceipt, verifyUploadToken, type StoredUpload, type UploadGrant } from '../lib/upload-token.js';
import type { CallerInfo, GatewayClient, GatewayOutcome } from './gateway-client.js';
import type { Operation } from './operations.js';
import type { RawResponse, RawUploadSpec, Route, RouteInput } from './types.js';
import { UploadInspector } from './upload-stream.js';

export interface UploadDeps {
  gateway: Pick<GatewayClient, 'execute'>;
  operation: Operation;
  caller: CallerInfo;
  uploadSecret: string;
  objects: ObjectStore;
}

/** The grant of `token` for a route of `spec`; DomainErrors with the documented codes otherwise. */
export function authorizeUpload(spec: RawUploadSpec, token: string | undefined, secret: string): UploadGrant {
  const check = verifyUploadToken(token ?? '', secret);
  if (!check.ok) throw new DomainError(check.code, check.message, { parameter: 'token' });
  if (check.grant.purpose !== spec.purpose) throw new DomainError('UPLOAD_SIGNATURE_INVALID', `This upload URL is not for this route (${check.grant.purpose})`, { parameter: 'token' });
  return check.grant;
}

/** Stream `req` into the store under the grant's key, checked on the way. */
async function store(req: IncomingMessage, spec: RawUploadSpec, grant: UploadGrant, objects: ObjectStore): Promise<StoredUpload> {
  const limit = Math.min(grant.maxBytes, spec.maxBytes);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `This upload takes at most ${limit} bytes`);
  const inspector = new UploadInspector(limit, spec.types);
  // a refused body is drained (not cut off), so the client reads our answer
  inspector.on('error', () => {
    req.unpipe(inspector);
    req.resume();
  });
  req.on('close', () => {
    if (!req.complete) inspector.destroy(new Error('the client closed the upload before its end'));
  });
  req.pipe(inspector);
  const contentType = await inspector.type;
  const info = await objects.put(grant.key, inspector, { contentType });
  if (info.size !== inspector.size) throw new Error(`object store wrote ${info.size} of ${inspector.size} bytes`);
  return { key: grant.key, size: inspector.size, contentType, sha256: inspector.digest() };
}

export async function executeUpload(route: Route, req: IncomingMessage, input: RouteInput, deps: UploadDeps): Promise<GatewayOutcome> {
  const spec = route.upload!;
  let grant: UploadGrant;
  let stored: StoredUpload;
  try {
    grant = authorizeUpload(spec, input.params.token, deps.uploadSecret);
    stored = await store(req, spec, grant, deps.objects);
  } catch (e) {
    // refused, or the store failed: stop feeding the inspector and drain the rest, so the answer reaches the client
    req.unpipe();
    if (!req.complete) req.resume();
    throw e;
  }
  const receipt = signUploadReceipt(grant.uploadId, stored, deps.uploadSecret);
  let outcome: GatewayOutcome;
  try {
    outcome = await deps.gateway.execute(deps.operation, route.variables({ ...input, upload: { ...stored, receipt } }), deps.caller);
  } catch (e) {
    await deps.objects.delete(stored.key);
    throw e;
  }
  if (outcome.kind !== 'data') await deps.objects.delete(stored.key);
  return outcome;
}

/** Answer a raw route with an object of the store, streamed (the operation named it; the bytes never crossed the gateway). */
export async function sendStoredObject(
  res: ServerResponse,
  objects: ObjectStore | undefined,
  secret: string | undefined,
  r: Extract<RawResponse, { objectRef: string }>,
  status: number,
  headers: Record<string, string>,
): Promise<void> {
  if (!objects || !secret) throw new Error('a raw route answered a stored object, but the bridge has no object store or internal secret');
  const key = openObjectRef(r.objectRef, secret);
  if (!key) throw new Error('a stored object reference did not open with this INTERNAL_SECRET (services and bridge must share it)');
  const o = await objects.get(key);
  if (!o) throw new DomainError('NOT_FOUND', 'The file is no longer stored');
  res.writeHead(status, { ...headers, ...r.headers, 'content-type': r.contentType, 'content-length': String(o.size) });
  await pipeline(o.body, res);
}
