/**
 * The typed errors of the API. Throw them anywhere; the one error renderer, in the envelope
 * middleware (lib/platform/http/middleware/http-envelope.ts), turns each into the spec's envelope
 * `{ok:false, error, message}` with its status. Anything else becomes a 502 with no internals.
 * Every code is one of the catalog (error-codes.ts), and only with its declared status.
 */
import type { CodeOf, ErrorCode, ErrorCodes } from './error-codes.ts';

export interface ValidationIssue {
  /** Where the problem is, e.g. `body.title` or `query.limit`. */
  path: string;
  message: string;
}

/**
 * Extra members of an error body beside `ok`, `error` and `message` (publish's `diagnostics`, a
 * breaking change's `changes`, a response's answer `issues`). Each route declares the ones it can
 * send in its error schema, so the document describes every body a client can receive.
 */
export type ErrorDetails = Readonly<Record<string, unknown>>;

const RESERVED_MEMBERS = new Set(['ok', 'error', 'message']);

export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly status: ErrorCodes[C],
    /** Stable, documented machine-readable code. */
    readonly code: C,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly issues?: ValidationIssue[],
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = new.target.name;
    for (const member of Object.keys(details ?? {})) {
      // A programming error, caught by the first test that throws it: details never overwrite the envelope.
      if (RESERVED_MEMBERS.has(member) || (member === 'issues' && issues))
        throw new TypeError(`Error detail "${member}" would overwrite the envelope`);
    }
  }
}

/** 400: the request is malformed or breaks a rule. */
export class BadRequestError extends ApiError {
  constructor(code: CodeOf<400>, message: string, issues?: ValidationIssue[], details?: ErrorDetails) {
    super(400, code, message, {}, issues, details);
  }
}

export class ValidationError extends BadRequestError {
  constructor(code: 'invalid_body' | 'invalid_query' | 'invalid_path' | 'invalid_header', issues: ValidationIssue[]) {
    const first = issues[0];
    super(code, first ? `${first.path}: ${first.message}` : 'The request is invalid', issues);
  }
}

/** 401: no usable key. */
export class UnauthorizedError extends ApiError {
  constructor(code: 'missing_key' | 'invalid_key' | 'key_expired' | 'key_revoked', message: string) {
    super(401, code, message, { 'WWW-Authenticate': 'Bearer realm="api"' });
  }
}

/** 403: the key is fine but may not do this here. */
export class ForbiddenError extends ApiError {
  constructor(code: 'missing_permission' | 'module_disabled' | 'workspace_suspended', message: string) {
    super(403, code, message);
  }
}

export class NotFoundError extends ApiError {
  constructor(code: CodeOf<404> = 'not_found', message = 'The requested record does not exist') {
    super(404, code, message);
  }
}

/** 405: the path exists, but not with this method; `Allow` lists the methods it takes. */
export class MethodNotAllowedError extends ApiError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed.join(', ')}`, { Allow: allowed.join(', ') });
  }
}

/** 415: a body sent as something other than JSON, which every route that takes a body requires. */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(contentType: string | undefined, expected = 'application/json') {
    super(
      415,
      'unsupported_media_type',
      `The body must be sent with Content-Type: ${expected}${contentType ? `, not ${contentType}` : ''}`,
    );
  }
}

export class ConflictError extends ApiError {
  constructor(code: CodeOf<409>, message: string, details?: ErrorDetails) {
    super(409, code, message, {}, undefined, details);
  }
}

/**
 * 409 `version_conflict`: an `If-Match` names a version the record has moved on from. Carries the
 * current ETag, so a client can re-read (or decide to overwrite) without guessing.
 */
export class VersionConflictError extends ApiError {
  constructor(currentVersion: number) {
    super(409, 'version_conflict', `The record changed since it was read; it is now at version ${currentVersion}`, {
      ETag: `"${currentVersion}"`,
    });
  }
}

/**
 * 413: a document (journey content, an article draft, a survey definition) passed its area's cap on
 * the JSON sent, or would not fit one item even compressed (lib/platform/data/compressed-json.ts).
 * Surveys answer it under their documented code `definition_too_large`.
 */
export class ContentTooLargeError extends ApiError {
  constructor(message: string, code: CodeOf<413> = 'content_too_large') {
    super(413, code, message);
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number, message = `Rate limit exceeded; retry after ${retryAfterSeconds} s`) {
    super(429, 'rate_limited', message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 429 `workspace_rate_limited`: the workspace's budget across all its keys is spent for now; `headers` describe it. */
export class WorkspaceRateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super(
      429,
      'workspace_rate_limited',
      `The workspace's request budget, shared by all its keys, is spent for now; retry after ${retryAfterSeconds} s`,
      { ...headers, 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/**
 * 503: AWS pushed back (throttling, or no answer in time) after the retries the SDK and the data kit
 * make themselves. A client's retry policy depends on telling this from a 502: this one is worth
 * sending again after `Retry-After`.
 */
export class ServiceBusyError extends ApiError {
  constructor(retryAfterSeconds: number, message: string) {
    super(503, 'service_busy', message, { 'Retry-After': String(retryAfterSeconds) });
  }
}
