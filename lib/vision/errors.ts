// What can go wrong in the vision module, as a kind the caller maps to its own error codes (the AI
// service to invalid_image_format / VALIDATION_FAILED / 413 / model_unavailable, the catalog to its
// own). lib/vision knows nothing of HTTP or GraphQL.
export type VisionErrorKind =
  /** not a JPEG, PNG, GIF or WebP by its first bytes, or not decodable */
  | 'invalid_image_format'
  /** more bytes than the cap, or more pixels than the decoder is allowed */
  | 'image_too_large'
  /** the URL was refused by the URL guard, did not answer, timed out or answered with an error status */
  | 'image_unreachable'
  /** the object store holds no object under the key */
  | 'image_not_found'
  /** a crop box outside the image or without area */
  | 'invalid_box'
  /** a model's files failed to load or run */
  | 'model_unavailable';

export class VisionError extends Error {
  constructor(
    readonly kind: VisionErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'VisionError';
  }
}
