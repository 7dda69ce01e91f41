/**
 * What a creating request asks to be remembered under (idempotency.ts), apart from the mechanism, so
 * a command can name it without importing the kit's transaction calls.
 */
/** What a request asks to be remembered under: set by the middy chain for routes marked `idempotent`. */
export interface IdempotentRequest {
  /** The client's Idempotency-Key. */
  key: string;
  /** The operation on its concrete path, e.g. `POST /journeys/<id>/versions`: keys are per operation. */
  scope: string;
  /** Digest of the request body (lib/platform/http/conditional-request.ts `requestFingerprint`). */
  fingerprint: string;
}
