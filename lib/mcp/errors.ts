/** The MCP area's own answers, on the platform's typed errors (rendered once, by the envelope). */
import { defineErrorCodes, type ErrorCode, type ErrorCodes, type ErrorStatus } from '../platform/error-codes.ts';
import { ApiError } from '../platform/errors.ts';
import type { ApiAnswer } from './api-calls.ts';
import { refusalOfAnswer } from './tool-calls.ts';

/** The codes the MCP area adds to the error catalog. */
export const mcpErrorCodes = defineErrorCodes({
  403: {
    origin_not_allowed: 'The request came from a web page (it carries `Origin`): connect from an MCP client',
  },
});

/** Headers of the API's refusal that say how to recover from it. */
const REFUSAL_HEADERS = ['Retry-After', 'WWW-Authenticate'];

/** The API refused the caller's key or workspace: the MCP request is refused with the same answer. */
export class RefusedByApi extends ApiError {
  constructor(answer: ApiAnswer) {
    const { error, message, issues, ok: _, ...details } = refusalOfAnswer(answer);
    const headers = Object.fromEntries(
      REFUSAL_HEADERS.flatMap((name) => [answer.headers.get(name)].flatMap((v) => (v ? [[name, v]] : []))),
    );
    // API Gateway's own 5xx (not our envelope) is this route's 502, like any failure it cannot explain.
    const status: ErrorStatus = answer.status >= 500 ? 502 : (answer.status as ErrorStatus);
    // Relayed as the API answered it: a code the catalog declares, with the status the API gave it.
    super(status as ErrorCodes[ErrorCode], error as ErrorCode, message, headers, issues, details);
  }
}

/**
 * MCP says a server must check `Origin` (a browser page rebound to the server's address must get
 * nothing). The API serves no browser: it sends no CORS headers, and a key is never ambient. So a
 * request a browser sent, which carries `Origin`, is refused.
 */
export class BrowserOriginRefused extends ApiError {
  constructor() {
    super(403, 'origin_not_allowed', 'The MCP server takes no requests from web pages (Origin): connect from an MCP client');
  }
}
