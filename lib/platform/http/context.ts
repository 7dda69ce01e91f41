import type { Context } from 'aws-lambda';
import type { AuthContext } from '../auth/context.ts';
import type { RateLimitedError } from '../errors.ts';

/**
 * What a request's count in its key's rate-limit window decided: the RateLimit-* headers and, over
 * the limit, the 429 to answer instead of anything else; or that the key was deleted since it was read.
 */
export type RateLimitVerdict =
  | { kind: 'counted'; headers: Record<string, string>; refusal: RateLimitedError | null }
  | { kind: 'key-gone' };

/** Per-request state carried on middy's `request.context`, never in module variables. */
export interface ApiContext extends Context {
  requestId: string;
  /** Headers every response of this request carries, success or error (request id, rate limit). */
  responseHeaders: Record<string, string>;
  auth?: AuthContext;
  input?: { params: unknown; query: unknown; body: unknown };
  /** The route's declared If-Match, parsed (middleware/if-match.ts). */
  precondition?: import('../data/conditions.ts').VersionPrecondition;
  /** A list's page start, its cursor verified (middleware/cursor-page.ts). */
  page?: import('../pagination.ts').ListPage;
  /**
   * The request's count in its key's rate-limit window, once the secret matched (authorize.ts): what
   * it decided, and whether a refusal for the limit outranks the request's other errors yet (the 401s
   * and the 404 of an unknown workspace come first in the order of checks).
   */
  rateLimit?: { verdict: Promise<RateLimitVerdict>; outranksOtherErrors: boolean };
  /** Resolves once the operation may write; rejects with the answer instead (lib/platform/write-gate.ts). */
  writesAllowed?: Promise<void>;
  /** The workspace whose key authentication verified: the request's usage is this workspace's (usage-meter.ts). */
  meteredWorkspace?: string;
  /** For an idempotent route sent an Idempotency-Key: the response remembered under it, read beside the workspace. */
  remembered?: import('../data/idempotency.ts').RememberedResponse;
}
