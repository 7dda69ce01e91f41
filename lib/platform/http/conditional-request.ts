/**
 * The request headers of optimistic concurrency and safe retries: `If-Match` (RFC 9110 §13.1.1)
 * against a record's version, and `Idempotency-Key` (as Stripe) on creating POSTs. A malformed one
 * is a 400 `invalid_header`, never silently ignored, because a client that sent it is relying on
 * it. `If-Match` is optional unless the route declares it required (route.ts `request.headers`):
 * the chain reads the declaration (middleware/if-match.ts) and answers a missing one, for every
 * such route, with one code and one message.
 */
import { createHash } from 'node:crypto';
import type { VersionPrecondition } from '../data/conditions.ts';
import { BadRequestError, ValidationError } from '../errors.ts';
import type { IfMatchDeclaration } from '../route.ts';

/** A record's version as an ETag: strong, quoted. `VersionConflictError` uses the same form. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

const MAX_IF_MATCH_TAGS = 20;
// An entity tag is quoted (RFC 9110 §8.8.3): a bare `1` is no entity tag, and reading it as "1"
// would accept what other servers reject, so a client that works here would break elsewhere.
const STRONG_TAG = /^"(\d{1,15})"$/;

function invalidIfMatch(message: string): never {
  throw new ValidationError('invalid_header', [{ path: 'header.If-Match', message }]);
}

export function ifMatchPrecondition(headers: Record<string, string | undefined>): VersionPrecondition {
  const raw = headers['if-match'];
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (value === '*') return { anyVersion: true };
  const tags = value.split(',').map((t) => t.trim());
  if (tags.length > MAX_IF_MATCH_TAGS) invalidIfMatch(`at most ${MAX_IF_MATCH_TAGS} entity tags`);
  const versions = tags.map((tag) => {
    if (tag.startsWith('W/')) invalidIfMatch('weak entity tags never match; send the ETag as returned, e.g. "3"');
    const match = STRONG_TAG.exec(tag);
    if (!match) invalidIfMatch('must be "*" or the ETag of a version in quotes, e.g. "3"');
    return Number(match[1]);
  });
  return { anyVersion: false, versions: [...new Set(versions)] };
}

/**
 * The one answer to a required If-Match that is missing (or `*` where the route needs the version
 * it replaces): the write would otherwise drop a change made since the client's read.
 */
export function ifMatchRequired(): BadRequestError {
  return new BadRequestError('if_match_required', 'Send If-Match with the ETag of the version you last read, e.g. "3"');
}

/**
 * The If-Match a route declares, parsed: undefined when it was not sent (or the route declares
 * none). A required one that is missing is `ifMatchRequired()`, here, before the operation; a route
 * that declares `missingAfterRead` gets it undefined and its operation answers it in its order.
 */
export function declaredPrecondition(
  declaration: IfMatchDeclaration | undefined,
  headers: Record<string, string | undefined>,
): VersionPrecondition {
  if (!declaration) return undefined;
  const precondition = ifMatchPrecondition(headers);
  if (declaration.required && !declaration.missingAfterRead) {
    if (!precondition || (precondition.anyVersion && declaration.anyVersion === false)) throw ifMatchRequired();
  }
  return precondition;
}

// Stripe allows 255 characters; visible ASCII keeps the key safe inside a DynamoDB sort key and logs.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = 'must be 1-255 visible ASCII characters, e.g. a UUID';

export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = raw.trim();
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ValidationError('invalid_header', [{ path: 'header.Idempotency-Key', message: IDEMPOTENCY_KEY_RULE }]);
  }
  return key;
}

/** Whether `key` may be an Idempotency-Key (visible ASCII, as a header value and a sort key can hold it). */
export function isIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}

/** The key, or undefined when none or an invalid one was sent (the chain's validation answers that one later). */
export function validIdempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const key = headers['idempotency-key']?.trim();
  return key !== undefined && IDEMPOTENCY_KEY.test(key) ? key : undefined;
}

/**
 * The operation an Idempotency-Key is remembered under: the method and the concrete path (e.g.
 * `POST /journeys/<id>/versions`), so a key is per operation and per parent record.
 */
export function idempotencyScope(route: { method: string; path: string }, params: Record<string, string | undefined>): string {
  return `${route.method} ${route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')}`;
}

/** JSON with object keys sorted at every level, so equal bodies serialise equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Identifies a request body for `Idempotency-Key` reuse: key order and whitespace do not change
 * it, any value does. Only the digest is stored, never the body.
 */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The header a replayed response carries, so a client can tell a replay from a new create. */
export function replayHeaders(replayed: boolean): Record<string, string> {
  return replayed ? { 'Idempotent-Replayed': 'true' } : {};
}
