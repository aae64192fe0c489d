// Multipart routes (POST multipart/form-data with one file and a few text fields, e.g. a product
// image). The file never crosses the gateway: with the caller's own credentials the bridge first
// asks the service for a signed upload grant (the route's `multipart.grant` operation: auth, scope
// and the parent resource are checked before a byte of the body is read), streams the file part
// through the UploadInspector (size cap, media type from the first bytes, SHA-256) into the object
// store under the grant's key, then runs the route's operation with the text fields and the stored
// object's reference sealed by the bridge's receipt, exactly as a presigned PUT (upload.ts).
// A refused file or a refused operation leaves nothing in the store.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { DomainError, type ErrorCode } from '../lib/errors.js';
import type { ObjectStore } from '../lib/object-store.js';
import { signUploadReceipt, type StoredUpload, type UploadGrant } from '../lib/upload-token.js';
import type { CallerInfo, GatewayClient, GatewayOutcome } from './gateway-client.js';
import type { Operation } from './operations.js';
import type { FormFieldSpec, MultipartSpec, Route, RouteInput } from './types.js';
import { authorizeUpload } from './upload.js';
import { UploadInspector } from './upload-stream.js';

export interface MultipartDeps {
  gateway: Pick<GatewayClient, 'execute'>;
  operations: Map<string, Operation>;
  caller: CallerInfo;
  uploadSecret: string;
  objects: ObjectStore;
}

/** room for the text fields and part headers beside the file */
const FORM_OVERHEAD = 64 * 1024;
const FIELD_MAX_BYTES = 4096;

const MULTIPART = /^multipart\/form-data\s*;.*boundary=/i;

/** A text field's value in its declared type; VALIDATION_FAILED naming the field otherwise. */
export function formValue(name: string, spec: FormFieldSpec, raw: string): unknown {
  if (spec.type === 'string') return raw;
  if (spec.type === 'integer') {
    if (!/^-?\d{1,15}$/.test(raw.trim())) throw new DomainError('VALIDATION_FAILED', `${name} must be an integer`, { parameter: name });
    return Number(raw.trim());
  }
  const v = raw.trim().toLowerCase();
  if (['true', '1'].includes(v)) return true;
  if (['false', '0'].includes(v)) return false;
  throw new DomainError('VALIDATION_FAILED', `${name} must be true or false (or 1 or 0)`, { parameter: name });
}

/** The inspector's refusals of the file, in the route's words (e.g. IMAGE_UPLOAD_FAILED with a reason). */
function refusal(spec: MultipartSpec, e: unknown): unknown {
  if (!(e instanceof DomainError)) return e;
  const reason = e.code === 'UNSUPPORTED_MEDIA_TYPE' ? 'unsupported_type' : e.code === 'BAD_REQUEST' ? 'empty' : e.code === 'PAYLOAD_TOO_LARGE' ? 'too_large' : null;
  if (!reason) return e;
  if (reason === 'too_large') return new DomainError('PAYLOAD_TOO_LARGE', `${spec.file} is larger than ${spec.maxBytes} bytes`, { parameter: spec.file });
  const code: ErrorCode = spec.refusedCode ?? e.code;
  const message = reason === 'empty' ? `${spec.file} is empty` : e.message.replace('The file', spec.file);
  return new DomainError(code, message, { parameter: spec.file, meta: { reason } });
}

interface ParsedForm {
  fields: Record<string, unknown>;
  stored: StoredUpload | null;
}

/** Parse the form: the file part streams into the store under the grant's key, text fields are typed. */
function parseForm(req: IncomingMessage, spec: MultipartSpec, grant: UploadGrant, objects: ObjectStore): Promise<ParsedForm> {
  const limit = Math.min(grant.maxBytes, spec.maxBytes);
  return new Promise<ParsedForm>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fields: Object.keys(spec.fields).length + 4, fieldSize: FIELD_MAX_BYTES, fileSize: limit + 1, parts: 32 } });
    } catch {
      req.resume();
      return reject(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be multipart/form-data with a boundary'));
    }
    const fields: Record<string, unknown> = {};
    let problem: unknown = null;
    let storing: Promise<StoredUpload> | null = null;
    const fail = (e: unknown) => {
      problem ??= e;
    };
    bb.on('field', (name, value, info) => {
      const f = spec.fields[name];
      if (!f) return fail(new DomainError('VALIDATION_FAILED', `Unknown form field ${name}; this route takes ${[spec.file, ...Object.keys(spec.fields)].join(', ')}`, { parameter: name }));
      if (info.valueTruncated) return fail(new DomainError('VALIDATION_FAILED', `${name} is longer than ${FIELD_MAX_BYTES} bytes`, { parameter: name }));
      try {
        fields[f.graphql] = formValue(name, f, value);
      } catch (e) {
        fail(e);
      }
    });
    bb.on('file', (name, stream) => {
      if (name !== spec.file || storing) {
        stream.resume();
        return fail(new DomainError('VALIDATION_FAILED', name === spec.file ? `Send one ${spec.file}` : `Unknown file field ${name}; the file goes in ${spec.file}`, { parameter: name }));
      }
      const inspector = new UploadInspector(limit, spec.types);
      inspector.on('error', () => {
        stream.unpipe(inspector);
        stream.resume(); // drain the rest of the part, so the client reads our answer
      });
      stream.pipe(inspector);
      storing = (async () => {
        const contentType = await inspector.type;
        const info = await objects.put(grant.key, inspector, { contentType });
        if (info.size !== inspector.size) throw new Error(`object store wrote ${info.size} of ${inspector.size} bytes`);
        return { key: grant.key, size: inspector.size, contentType, sha256: inspector.digest() };
      })();
      storing.catch(() => undefined);
    });
    bb.on('partsLimit', () => fail(new DomainError('VALIDATION_FAILED', 'Too many form parts')));
    bb.on('fieldsLimit', () => fail(new DomainError('VALIDATION_FAILED', 'Too many form fields')));
    bb.on('error', (e) => {
      req.unpipe(bb);
      req.resume();
      reject(new DomainError('BAD_REQUEST', `The multipart body is malformed: ${(e as Error).message}`));
    });
    bb.on('close', () => {
      void (async () => {
        let stored: StoredUpload | null = null;
        if (storing) {
          try {
            stored = await storing;
          } catch (e) {
            problem = refusal(spec, e);
          }
        }
        if (problem) {
          if (stored) await objects.delete(stored.key);
          return reject(problem);
        }
        resolve({ fields, stored });
      })().catch(reject);
    });
    req.on('close', () => {
      if (!req.complete) bb.destroy(new Error('the client closed the upload before its end'));
    });
    req.pipe(bb);
  });
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-app-id', 'x-platform']);

function withoutCredentials(caller: CallerInfo): CallerInfo {
  return { ...caller, headers: Object.fromEntries(Object.entries(caller.headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase()))) };
}

export async function executeMultipart(route: Route, req: IncomingMessage, input: RouteInput, deps: MultipartDeps): Promise<GatewayOutcome> {
  const spec = route.multipart!;
  const contentType = req.headers['content-type'] ?? '';
  if (!MULTIPART.test(contentType)) {
    req.resume();
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be multipart/form-data (got ${contentType.split(';')[0] || 'none'})`);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > spec.maxBytes + FORM_OVERHEAD) {
    req.resume();
    throw new DomainError('PAYLOAD_TOO_LARGE', `${spec.file} takes at most ${spec.maxBytes} bytes`, { parameter: spec.file });
  }
  // the service grants the upload with the caller's credentials: who, which scope, which parent resource
  const granted = await deps.gateway.execute(deps.operations.get(spec.grant.operation)!, spec.grant.variables(input), deps.caller);
  if (granted.kind !== 'data') {
    req.resume();
    return granted;
  }
  const uploadToken = spec.grant.token(granted.data);
  const grant = authorizeUpload(spec, uploadToken, deps.uploadSecret);
  let form: ParsedForm;
  try {
    form = await parseForm(req, spec, grant, deps.objects);
  } catch (e) {
    if (!req.complete) req.resume();
    throw e;
  }
  const upload = form.stored ? { ...form.stored, receipt: signUploadReceipt(grant.uploadId, form.stored, deps.uploadSecret) } : undefined;
  if (!upload && !spec.optionalFile) throw new DomainError('VALIDATION_FAILED', `${spec.file} is required (a multipart file part)`, { parameter: spec.file });
  let outcome: GatewayOutcome;
  try {
    // the route's operation takes the signed token as its credential: sent without the caller's key,
    // so one request counts once against the key's rate limit (the grant call counted it)
    outcome = await deps.gateway.execute(deps.operations.get(route.operation)!, route.variables({ ...input, form: form.fields, upload, uploadToken }), withoutCredentials(deps.caller));
  } catch (e) {
    if (upload) await deps.objects.delete(upload.key);
    throw e;
  }
  if (outcome.kind !== 'data' && upload) await deps.objects.delete(upload.key);
  return outcome;
}
