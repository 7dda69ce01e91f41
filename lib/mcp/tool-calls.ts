/**
 * A tool call as one request to the API and the API's answer as the tool's result: a success is the
 * response body as structured content (with the record's `etag`, which a later write sends back as
 * `ifMatch`); a refusal is a tool error carrying the API's own envelope, so an agent reads the same
 * `error` code and message an integrator would (`missing_permission`, `invalid_body` with its
 * `issues`, `version_conflict`…). Checking the arguments is the API's job: only what is needed to
 * build the request is checked here.
 */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { ApiError, ValidationError, type ValidationIssue } from '../platform/errors.ts';
import { GATEWAY_HEADER_BYTES } from '../platform/gateway-answers.ts';
import { IDEMPOTENCY_KEY_RULE, isIdempotencyKey } from '../platform/http/conditional-request.ts';
import { renderError } from '../platform/http/middleware/http-envelope.ts';
import { API_PREFIX } from '../platform/route.ts';
import type { ApiAnswer, ApiRequest } from './api-calls.ts';
import { type AgentTool, BODY_ARGUMENT, IDEMPOTENCY_KEY_ARGUMENT, IF_MATCH_ARGUMENT } from './tools.ts';

/**
 * Tool and prompt arguments are the API's to check (it answers `invalid_body` and friends with the
 * issues a model can act on); the SDK's own validation, which would answer first in other words,
 * passes them.
 */
export const argumentsCheckedByTheApi: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** The API's error envelope, as a tool error's structured content. */
export interface Refusal {
  ok: false;
  error: string;
  message: string;
  issues?: ValidationIssue[];
  [member: string]: unknown;
}

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: true;
  [member: string]: unknown;
}

/** A typed error as the API would render it (lib/platform/http/middleware/http-envelope.ts: the one renderer). */
export function refusalOf(error: ApiError): Refusal {
  return renderError(error).body as Refusal;
}

function refusal(code: 'invalid_body' | 'invalid_query' | 'invalid_path' | 'invalid_header', issues: ValidationIssue[]): Refusal {
  return refusalOf(new ValidationError(code, issues));
}

/** A header value as HTTP allows it: visible ASCII, spaces inside. */
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * What the request line of a tool's call may take: API Gateway refuses a request whose request line
 * and headers pass GATEWAY_HEADER_BYTES (a 431 no tool error should relay), and the headers the
 * server sends (the key, the workspace, the request id, If-Match, Idempotency-Key) keep 2 KB of them.
 */
const URL_BUDGET = GATEWAY_HEADER_BYTES - 2048;

/** The path or query argument whose value is the longest, the one to name when the address is too long. */
function longestArgument(args: Record<string, unknown>, names: readonly string[]): string | undefined {
  const length = (name: string) => scalar(args[name])?.length ?? 0;
  return [...names].sort((a, b) => length(b) - length(a))[0];
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** The request a tool call makes, or the refusal of arguments it cannot even be built from. */
export function requestOf(tool: AgentTool, args: Record<string, unknown>): ApiRequest | Refusal {
  const { path, query, body, ifMatch, idempotencyKey } = tool.arguments;
  const known = new Set([
    ...path,
    ...query,
    ...(body ? [BODY_ARGUMENT] : []),
    ...(ifMatch ? [IF_MATCH_ARGUMENT] : []),
    ...(idempotencyKey ? [IDEMPOTENCY_KEY_ARGUMENT] : []),
  ]);
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const hint = body ? ` (the request body goes in \`${BODY_ARGUMENT}\`)` : '';
    return refusal('invalid_body', [{ path: 'arguments', message: `unknown argument ${unknown.map((n) => `"${n}"`).join(', ')}${hint}` }]);
  }
  const pathIssues: ValidationIssue[] = [];
  const filled = tool.route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = scalar(args[name]);
    // One segment each: encodeURIComponent encodes `/`, and `.` and `..` would walk to another route.
    if (value === undefined || value === '' || value === '.' || value === '..') {
      pathIssues.push({ path: `path.${name}`, message: value === undefined ? 'required, a string' : 'is not an identifier' });
      return '';
    }
    try {
      return encodeURIComponent(value);
    } catch {
      // A lone surrogate is no text a URL can carry.
      pathIssues.push({ path: `path.${name}`, message: 'is not Unicode text' });
      return '';
    }
  });
  if (pathIssues.length > 0) return refusal('invalid_path', pathIssues);
  const search = new URLSearchParams();
  for (const name of query) {
    if (args[name] === undefined || args[name] === null) continue;
    const value = scalar(args[name]);
    if (value === undefined) return refusal('invalid_query', [{ path: `query.${name}`, message: 'must be a string, number or boolean' }]);
    search.set(name, value);
  }
  const headers: Record<string, string> = {};
  const ifMatchValue = args[IF_MATCH_ARGUMENT];
  if (typeof ifMatchValue === 'string') {
    // A header value is visible ASCII: CR, LF or a non-ASCII letter could not even be sent (fetch throws).
    if (!HEADER_VALUE.test(ifMatchValue)) {
      return refusal('invalid_header', [{ path: IF_MATCH_ARGUMENT, message: 'must be the `etag` of your latest read, e.g. "3"' }]);
    }
    headers['If-Match'] = ifMatchValue;
  }
  const keyValue = args[IDEMPOTENCY_KEY_ARGUMENT];
  if (typeof keyValue === 'string') {
    if (!isIdempotencyKey(keyValue)) return refusal('invalid_header', [{ path: IDEMPOTENCY_KEY_ARGUMENT, message: IDEMPOTENCY_KEY_RULE }]);
    headers['Idempotency-Key'] = keyValue;
  }
  const queryString = search.size > 0 ? `?${search}` : '';
  const longest = longestArgument(args, [...path, ...query]);
  if (longest && `${API_PREFIX}${filled}${queryString}`.length > URL_BUDGET) {
    return refusal(path.includes(longest) ? 'invalid_path' : 'invalid_query', [
      {
        path: `${path.includes(longest) ? 'path' : 'query'}.${longest}`,
        message: `is too long: the request's address may not pass ${URL_BUDGET} characters`,
      },
    ]);
  }
  return {
    method: tool.route.method,
    path: `${filled}${queryString}`,
    ...(body ? { body: args[BODY_ARGUMENT] ?? null } : {}),
    headers,
  };
}

export function isRefusal(value: ApiRequest | Refusal): value is Refusal {
  return 'ok' in value;
}

/** A refusal as the tool error a model reads: the code and message first, then each issue. */
export function toolError(envelope: Refusal): ToolResult {
  const lines = [`${envelope.error}: ${envelope.message}`, ...(envelope.issues ?? []).map((issue) => `- ${issue.path}: ${issue.message}`)];
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: envelope };
}

/**
 * An answer of the API that is not our envelope: API Gateway's own (a function past its timeout, the
 * stage throttle), or no JSON at all. The agent learns the status, and nothing made up.
 */
export function refusalOfAnswer(answer: ApiAnswer): Refusal {
  const body = answer.body as Partial<Refusal> | null;
  if (body && body.ok === false && typeof body.error === 'string' && typeof body.message === 'string') return body as Refusal;
  const retryAfter = answer.headers.get('Retry-After');
  const message = `The API answered ${answer.status}${retryAfter ? `; retry after ${retryAfter} s` : ''}`;
  return refusalOf(answer.status === 429 ? new ApiError(429, 'rate_limited', message) : new ApiError(502, 'internal_error', message));
}

/** The API's answer to a tool's request as the tool's result. */
export function resultOf(answer: ApiAnswer): ToolResult {
  if (answer.status >= 300) return toolError(refusalOfAnswer(answer));
  const body = answer.body ?? { ok: true };
  if (typeof body !== 'object' || Array.isArray(body)) return toolError(refusalOfAnswer(answer));
  const etag = answer.headers.get('ETag');
  const structuredContent = { ...(body as Record<string, unknown>), ...(etag ? { etag } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
}
