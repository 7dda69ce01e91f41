/**
 * The catalog of error codes: every `error` an envelope can carry, with its one status and what it
 * means. The platform's own codes are here; each area declares its codes in its `errors.ts`
 * (`defineErrorCodes`), and lib/error-codes.ts adds them all to `ErrorCodes`, the type every typed
 * error (errors.ts) takes its code from. So a code nobody declared does not compile, a code thrown
 * with another status than its declared one does not compile, and the OpenAPI document and
 * docs/errors.md read the same catalog.
 */

/** The statuses an error envelope is sent with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 502 | 503;

/** One code of a catalog: the status it is always sent with, and what it means wherever it is sent. */
interface ErrorCodeEntry {
  status: ErrorStatus;
  meaning: string;
}

export type ErrorCatalog = Readonly<Record<string, ErrorCodeEntry>>;

/** A catalog as it is written: each status once, with its codes and what each means. */
type CodesByStatus = { readonly [S in ErrorStatus]?: Readonly<Record<string, string>> };

/** The codes of a catalog written by status, each with the status it is listed under. */
type CatalogOf<T extends CodesByStatus> = {
  -readonly [C in { [S in keyof T]: keyof T[S] }[keyof T] & string]: {
    status: { [S in keyof T]: C extends keyof T[S] ? S : never }[keyof T] & ErrorStatus;
    meaning: string;
  };
};

/**
 * A catalog written by status (`{ 409: { survey_archived: 'The survey is …' } }`), as code → status
 * and meaning; its codes and statuses are kept as literal types, so `ErrorCodes` can be built from it.
 */
export function defineErrorCodes<const T extends CodesByStatus>(byStatus: T): CatalogOf<T> {
  const catalog: Record<string, ErrorCodeEntry> = {};
  for (const [status, codes] of Object.entries(byStatus) as [string, Record<string, string>][]) {
    for (const [code, meaning] of Object.entries(codes)) catalog[code] = { status: Number(status) as ErrorStatus, meaning };
  }
  return catalog as CatalogOf<T>;
}

/** Code → status of a catalog: what `ErrorCodes` is made of. */
export type StatusesOf<T extends ErrorCatalog> = { -readonly [C in keyof T]: T[C]['status'] };

export const platformErrorCodes = defineErrorCodes({
  400: {
    invalid_json:
      'The body is not JSON, or not the text sent: bytes that are not UTF-8, U+FFFD sent as such (escape it: `\\ufffd`), a lone surrogate',
    invalid_body: 'The body breaks the operation’s schema or a rule of its fields; `issues` lists each problem',
    invalid_query: 'A query parameter is unknown, missing or out of range; `issues` lists each problem',
    invalid_path: 'A path parameter is malformed, e.g. an id that must be a UUID and is not',
    invalid_header:
      'A malformed `X-Service-Workspace-Host`, `If-Match` or `Idempotency-Key` (a client that sent one relies on it), or a ' +
      'header value holding a control character (RFC 9110 §5.5)',
    invalid_cursor: 'A `cursor` this list did not issue for this workspace and filters: pass `pagination.nextCursor` back as it came',
    missing_workspace_host: 'No workspace selected: send `X-Service-Workspace-Host`, or call the workspace host',
    if_match_required: 'The operation changes a record only with `If-Match` naming the version last read',
    invalid_state: 'The record’s state does not allow this step',
  },
  401: {
    missing_key: 'No `Authorization: Bearer <Developer key>` header',
    invalid_key:
      'A malformed, unknown or rotated-away key, a wrong secret, another workspace’s key, or no such workspace (one answer for all)',
    key_expired: 'The Developer key has expired',
    key_revoked: 'The Developer key has been revoked',
  },
  403: {
    missing_permission: 'The key lacks a permission the operation (or this use of it) needs',
    module_disabled: 'The workspace has the operation’s module switched off',
    workspace_suspended: 'The workspace is suspended',
  },
  404: {
    not_found: 'No such record in this workspace (another workspace’s records answer the same)',
    workspace_not_found: 'No such workspace (told only to a caller whose key is valid for it)',
    route_not_found: 'No operation has this path',
  },
  405: {
    method_not_allowed: 'The path exists with other methods, listed in `Allow`',
  },
  409: {
    version_conflict: 'The record changed since it was read: `If-Match` names another version (the answer’s `ETag` holds the current one)',
    idempotency_key_reused: 'The `Idempotency-Key` was used in the last 24 hours with a different request',
    version_locked: 'The version is published or superseded; only drafts change',
  },
  413: {
    content_too_large: 'The document sent is over its size limit, or would not fit one stored item compressed',
  },
  415: {
    unsupported_media_type: 'A body sent without `Content-Type: application/json` (a `charset` parameter is fine)',
  },
  429: {
    rate_limited:
      'The key’s rate limit, more requests at once than one key’s counter can take, or too many failed authentications from one ' +
      'address; wait `Retry-After` seconds',
    workspace_rate_limited:
      'The workspace’s request budget, shared by all its keys, is spent for now (the `RateLimit-*` headers describe it); wait ' +
      '`Retry-After` seconds',
  },
  502: {
    internal_error: 'Unexpected server error, not worth a retry as it is; details only in the logs, under the answer’s `X-Request-Id`',
  },
  503: {
    service_busy:
      'DynamoDB or SQS throttled the request, or did not answer in time, after the retries the service makes itself; send it ' +
      'again after `Retry-After` seconds (a throttled write wrote nothing; after a timeout a write may have landed, so send a ' +
      'write again with its `If-Match` or `Idempotency-Key`)',
  },
});

/**
 * Every declared code and its status: the platform's here, each area's added by lib/error-codes.ts.
 * The typed errors (errors.ts) accept only these codes, each only with its status.
 */
export interface ErrorCodes extends StatusesOf<typeof platformErrorCodes> {}

export type ErrorCode = keyof ErrorCodes;

/** The declared codes sent with `status`. */
export type CodeOf<S extends ErrorStatus> = { [C in ErrorCode]: ErrorCodes[C] extends S ? C : never }[ErrorCode];
