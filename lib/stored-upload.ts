// The service side of an upload: the mutation an upload route calls receives the object the REST
// bridge stored (key, size, media type, SHA-256) with the bridge's receipt, never the bytes.
// acceptStoredUpload checks, without trusting the caller: the presigned token (signature, expiry,
// purpose), that the object is the one the token named, the receipt (only the bridge, holding
// INTERNAL_SECRET, can seal one), and that the store holds an object of that size.
import { Field, InputType, Int } from 'type-graphql';
import { DomainError } from './errors.js';
import type { ObjectStore } from './object-store.js';
import { verifyUploadReceipt, verifyUploadToken, type StoredUpload, type UploadGrant } from './upload-token.js';

@InputType({ description: 'An object the REST bridge stored for a presigned upload, sealed by its receipt' })
export class StoredUploadInput implements StoredUpload {
  @Field({ description: "the object's key in the store" }) key!: string;
  @Field(() => Int, { description: 'bytes' }) size!: number;
  @Field({ description: 'media type decided from the first bytes' }) contentType!: string;
  @Field({ description: 'hex SHA-256 of the whole object' }) sha256!: string;
  @Field({ description: "the bridge's HMAC over the upload id and the fields above" }) receipt!: string;
}

export async function acceptStoredUpload(
  objects: ObjectStore,
  secret: string,
  purpose: string,
  token: string,
  object: StoredUploadInput,
): Promise<{ grant: UploadGrant; stored: StoredUpload }> {
  const check = verifyUploadToken(token, secret);
  if (!check.ok) throw new DomainError(check.code, check.message, { parameter: 'token' });
  const { grant } = check;
  if (grant.purpose !== purpose) throw new DomainError('UPLOAD_SIGNATURE_INVALID', `This upload URL is not for a ${purpose} upload`, { parameter: 'token' });
  const stored: StoredUpload = { key: object.key, size: object.size, contentType: object.contentType, sha256: object.sha256 };
  if (stored.key !== grant.key || !verifyUploadReceipt(grant.uploadId, stored, object.receipt, secret)) {
    throw new DomainError('UPLOAD_SIGNATURE_INVALID', 'The stored object does not carry a valid receipt for this upload URL', { parameter: 'receipt' });
  }
  if (stored.size > grant.maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE', `This upload URL takes at most ${grant.maxBytes} bytes`);
  const head = await objects.head(stored.key);
  if (!head || head.size !== stored.size) throw new DomainError('UPLOAD_NOT_FOUND', `The store holds no ${stored.size}-byte object for ${grant.uploadId}`, { parameter: 'token' });
  return { grant, stored };
}
