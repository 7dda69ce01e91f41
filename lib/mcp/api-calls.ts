/**
 * The MCP server's one way to the data: the API itself, over HTTP, with the caller's own key and
 * workspace. Every check (key, workspace, permission, module, rate limit, validation, If-Match)
 * stays on the API's routes, and the server's function needs no table permission at all.
 *
 * Where it calls is the API's own base URL from the stack (config.apiBaseUrl), never anything a
 * request says, and each path is a route's template with its parameters encoded into single
 * segments (tool-calls.ts refuses `.` and `..`), so no caller can make it call anywhere else.
 */
import { bearerToken } from '../platform/auth/bearer.ts';
import { credentialOf, FORWARDED_PROOF_PURPOSE, forwardedToken } from '../platform/auth/derived-key-token.ts';
import { UnauthorizedError } from '../platform/errors.ts';
import { workspaceSlugFrom } from '../platform/http/workspace-host.ts';
import { keyedHash } from '../platform/keyed-hash.ts';

/** One HTTP request to the API, below its base URL. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below `/api/v1`, encoded, with its query string. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** What to accept when the operation answers something other than JSON (a journey map's SVG). */
  accept?: string;
}

/** The API's answer: its status, its headers and its JSON body (null when it sent none or no JSON). */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  /** The body as sent, for an answer that is not JSON (an SVG). */
  text?: string;
}

/** Who is calling, as their request to the MCP server says: passed on for the API to check. */
export interface Caller {
  authorization: string;
  /** The workspace the request selected (its slug). */
  workspace: string;
}

/**
 * The caller's workspace and key, checked as the API's first checks do, before anything else and
 * without a call: a workspace selected and well-formed (400), then a key present and well-formed
 * (401). The workspace is their `X-Service-Workspace-Host`, or, when they called on a workspace host,
 * that host's (the API's own rule, workspace-host.ts), so the call to the API's base URL selects the
 * same workspace the caller's request did.
 */
export async function callerOf(headers: Record<string, string | undefined>): Promise<Caller> {
  const workspace = workspaceSlugFrom(headers);
  const token = bearerToken(headers.authorization);
  const credential = credentialOf(token);
  if (credential?.kind === 'access') {
    // An OAuth access token: the API takes it only in the form this server forwards (its proof
    // keyed with the server secret), so the token itself is good for this server alone.
    return { authorization: `Bearer ${forwardedToken(token, await keyedHash(FORWARDED_PROOF_PURPOSE, token))}`, workspace };
  }
  if (credential?.kind !== 'developer-key') throw new UnauthorizedError('invalid_key', 'The Developer key is not valid');
  return { authorization: `Bearer ${token}`, workspace };
}

function connectionReset(failure: unknown): boolean {
  const code = (failure as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/** The rate-limit headers of the API's latest answer, which the MCP response passes on. */
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

export class ApiCalls {
  /** The rate-limit headers of the latest answer, for the MCP response. */
  rateLimit: Record<string, string> = {};
  /** How many calls went to the API with the caller's key: none means nothing has checked the key yet. */
  sent = 0;

  constructor(
    private readonly options: {
      baseUrl: string;
      caller: Caller;
      /** The MCP request's id, sent on as `X-Request-Id` so the API's logs join the server's. */
      requestId: string;
      /** When the function must have answered (epoch ms): each call gives up before it. */
      deadline: number;
    },
  ) {}

  async send(request: ApiRequest): Promise<ApiAnswer> {
    const { caller, requestId, baseUrl, deadline } = this.options;
    const headers: Record<string, string> = {
      Accept: request.accept ?? 'application/json',
      'User-Agent': 'cx-portal-mcp',
      'X-Request-Id': requestId,
      ...request.headers,
    };
    headers.Authorization = caller.authorization;
    headers['X-Service-Workspace-Host'] = caller.workspace;
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    this.sent++;
    const attempt = () =>
      fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        // The API never redirects an operation; anything else is not the API.
        redirect: 'error',
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
    let response: Response;
    try {
      response = await attempt();
    } catch (failure) {
      // A kept-alive connection the other side closed as it was reused: nothing was answered, and a
      // GET changes nothing, so it is sent once more on a new connection. A write is not resent.
      if (request.method !== 'GET' || !connectionReset(failure)) throw failure;
      response = await attempt();
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    const rateLimit = RATE_LIMIT_HEADERS.flatMap((name) => {
      const value = response.headers.get(name);
      return value === null ? [] : [[name, value] as const];
    });
    if (rateLimit.length > 0) this.rateLimit = Object.fromEntries(rateLimit);
    return { status: response.status, headers: response.headers, body, text };
  }
}
