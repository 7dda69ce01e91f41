/**
 * The error codes a route answers, by status: the ones its shape brings (every key-checked route can
 * meet a revoked key; a body brings `invalid_body`; a path id `not_found`; `If-Match` a stale
 * version), then the ones it declares itself (RouteDefinition.errors). The OpenAPI document
 * (openapi.ts) and docs/errors.md (error-reference.ts) both read them from here.
 */
import { type ErrorCode, type ErrorStatus, platformErrorCodes } from './error-codes.ts';
import { acceptsCursor, type RouteDefinition } from './route.ts';

type Route = Pick<RouteDefinition, 'auth' | 'permissions' | 'module' | 'request' | 'idempotent' | 'errors'>;
type PlatformCode = keyof typeof platformErrorCodes;

/** A code the platform answers for every route of a shape, and how docs/errors.md names that shape. */
interface ImpliedCode {
  code: PlatformCode;
  answeredBy: string;
  applies: (route: Route) => boolean;
}

const always = () => true;
const ifMatchOf = (route: Route) => route.request?.headers?.['If-Match'];

/** In the order of the checks (docs/using-the-api.md, "Order of checks"), so each status lists its codes as they are met. */
const IMPLIED_CODES: readonly ImpliedCode[] = [
  { code: 'missing_workspace_host', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'invalid_header', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'missing_key', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'invalid_key', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'key_revoked', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'key_expired', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'workspace_not_found', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'rate_limited', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'workspace_rate_limited', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'workspace_suspended', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'module_disabled', answeredBy: 'every operation of a module (all but `GET /me`)', applies: (route) => route.module !== null },
  {
    code: 'missing_permission',
    answeredBy: 'every operation that needs a permission (all but `GET /me`)',
    applies: (route) => route.permissions.length > 0,
  },
  { code: 'unsupported_media_type', answeredBy: 'every operation that takes a body', applies: (route) => !!route.request?.body },
  { code: 'invalid_json', answeredBy: 'every operation that takes a body', applies: (route) => !!route.request?.body },
  { code: 'invalid_path', answeredBy: 'every operation with a path parameter', applies: (route) => !!route.request?.params },
  { code: 'invalid_query', answeredBy: 'every operation that takes a key (an unknown parameter included)', applies: always },
  { code: 'invalid_body', answeredBy: 'every operation that takes a body', applies: (route) => !!route.request?.body },
  { code: 'invalid_cursor', answeredBy: 'every list that takes `cursor`', applies: acceptsCursor },
  {
    code: 'if_match_required',
    answeredBy: 'every operation whose `If-Match` is required',
    applies: (route) => !!ifMatchOf(route)?.required,
  },
  { code: 'not_found', answeredBy: 'every operation with a path parameter', applies: (route) => !!route.request?.params },
  { code: 'version_conflict', answeredBy: 'every operation that takes `If-Match`', applies: (route) => !!ifMatchOf(route) },
  { code: 'idempotency_key_reused', answeredBy: 'every create that takes `Idempotency-Key`', applies: (route) => !!route.idempotent },
  { code: 'internal_error', answeredBy: 'every operation that takes a key', applies: always },
  { code: 'service_busy', answeredBy: 'every operation that takes a key', applies: always },
];

/**
 * The codes no operation answers: what API Gateway's `$default` route (functions/system/not-found.ts)
 * answers for a request no route matches.
 */
/** What a public route's body brings (the workspace host's 400 too: OAuth's routes live on one). */
const PUBLIC_BODY_CODES: readonly PlatformCode[] = [
  'missing_workspace_host',
  'unsupported_media_type',
  'invalid_json',
  'invalid_body',
  'invalid_query',
  'internal_error',
];

export const UNROUTED_CODES: readonly PlatformCode[] = ['route_not_found', 'method_not_allowed'];

/** How docs/errors.md says which operations answer an implied code. */
export function impliedAnsweredBy(code: ErrorCode): string | undefined {
  return IMPLIED_CODES.find((implied) => implied.code === code)?.answeredBy;
}

/** What a route answers with one status: each code with its note for this route (undefined: the catalog's meaning). */
export type StatusCodes = Map<ErrorCode, string | undefined>;

/**
 * Every code the route answers, by status in ascending order: the implied ones first, in the order
 * of the checks, then the route's own. A public route (no key) answers none.
 */
export function errorCodesOf(route: Route): Map<ErrorStatus, StatusCodes> {
  const byStatus = new Map<ErrorStatus, StatusCodes>();
  // A public route answers only what it declares (OAuth's endpoints), and what its body's parsing does.
  const isPublic = route.auth === 'none';
  if (isPublic && !route.errors) return byStatus;
  const add = (status: ErrorStatus, code: ErrorCode, note: string | undefined) => {
    const codes = byStatus.get(status) ?? new Map<ErrorCode, string | undefined>();
    codes.set(code, note ?? codes.get(code));
    byStatus.set(status, codes);
  };
  for (const implied of IMPLIED_CODES) {
    if (isPublic && !PUBLIC_BODY_CODES.includes(implied.code)) continue;
    if (implied.applies(route)) add(platformErrorCodes[implied.code].status, implied.code, undefined);
  }
  for (const [status, codes] of Object.entries(route.errors ?? {})) {
    for (const [code, note] of Object.entries(codes ?? {})) {
      add(Number(status) as ErrorStatus, code as ErrorCode, note === true ? undefined : note);
    }
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
