import type { Context } from 'aws-lambda';
import type { AuthContext } from '../auth/context.ts';

/** Per-request state carried on middy's `request.context`, never in module variables. */
export interface ApiContext extends Context {
  requestId: string;
  /** Headers every response of this request carries, success or error (request id, rate limit). */
  responseHeaders: Record<string, string>;
  auth?: AuthContext;
  input?: { params: unknown; query: unknown; body: unknown };
  /** For an idempotent route sent an Idempotency-Key: the response remembered under it, read beside the workspace. */
  remembered?: import('../data/idempotency.ts').RememberedResponse;
}
