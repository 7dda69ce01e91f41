/**
 * The middy chain every API operation runs, in this order:
 *   1. httpEnvelope   request id, API-Version (and a deprecated route's Deprecation/Sunset),
 *                     success rendering, the one error renderer (outermost)
 *   2. headerValues   a header value holding a control character → 400 `invalid_header` (RFC 9110 §5.5)
 *   3. authorize      workspace → key → rate limit → suspension/module/permission; for an
 *                     idempotent route sent an Idempotency-Key, the remembered response is read
 *                     in the same round trip as the workspace. The key's rate-limit count runs
 *                     beside everything after it: its `after` (or `onError`) waits for the count
 *                     and answers 429 instead when the request was over its limit
 *   4. jsonBody       a body not sent as JSON → 415; not UTF-8, not JSON, a lone surrogate → 400
 *                     `invalid_json` (after auth: anonymous callers learn nothing)
 *   5. validateRequest  zod on path, query and body
 *   6. ifMatch        the route's declared If-Match, parsed into `request.precondition` (400
 *                     `invalid_header` malformed, 400 `if_match_required` required and missing)
 *   7. cursorPage     a list's page start (list-handler.ts: a route whose query takes `cursor`) into
 *                     `request.page`, its cursor verified against the workspace and the list as the
 *                     request selects it (400 `invalid_cursor`)
 *   8. the handler function, which gets typed input and returns `{ body, headers?, status? }`;
 *      a retry of a remembered create gets the handler's `replay` of its first answer instead,
 *      before any check of the area (another body under the key: 409 `idempotency_key_reused`).
 *      It runs behind the rate limit's verdict (lib/platform/write-gate.ts): its reads go out at
 *      once, its writes only once the count said the request is within its limit
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type IdempotentRequest, replayOf } from '../data/idempotency.ts';
import { API_PREFIX, type ApiRequest, type ApiResult, acceptsCursor, type RouteDefinition, SVG_RESPONSE_HEADERS } from '../route.ts';
import { deprecationHeaders } from '../version.ts';
import { runBehindVerdict } from '../write-gate.ts';
import { idempotencyKeyOf, idempotencyScope, replayHeaders, requestFingerprint } from './conditional-request.ts';
import type { ApiContext } from './context.ts';
import { authorize } from './middleware/authorize.ts';
import { headerValues } from './middleware/header-values.ts';
import { type HandlerResult, httpEnvelope } from './middleware/http-envelope.ts';
import { ifMatch } from './middleware/if-match.ts';
import { jsonBody } from './middleware/json-body.ts';
import { validateRequest } from './middleware/validate-request.ts';
import { metered } from './usage-meter.ts';

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: import('aws-lambda').Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The Idempotency-Key of a creating POST, scoped to the operation on its concrete path (the same
 * scope authorization read the remembered response under).
 */
function idempotentRequestOf(route: RouteDefinition, event: APIGatewayProxyEventV2, body: unknown): IdempotentRequest | undefined {
  const key = idempotencyKeyOf(event.headers ?? {});
  if (key === undefined) return undefined;
  return { key, scope: idempotencyScope(route, event.pathParameters ?? {}), fingerprint: requestFingerprint(body) };
}

/**
 * How a create's handler answers a replay from what it remembered (its store's response): the same
 * body and headers its first answer had, without running the handler again, so no check of the area
 * can refuse a retry that the first request passed (a slug now taken by the first request itself).
 */
export type ReplayAnswer<R extends RouteDefinition> = (remembered: unknown, request: ApiRequest<R>) => ApiResult<R> | Promise<ApiResult<R>>;

/** The `Location` of a created record: the route's template filled from the response body. */
function locationOf(template: string, body: unknown): string {
  const path = template.replace(/\{([\w.]+)\}/g, (_, field: string) => {
    const value = field.split('.').reduce<unknown>((at, name) => (at as Record<string, unknown> | undefined)?.[name], body);
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`Location ${template}: no ${field} in the response`);
    return encodeURIComponent(String(value));
  });
  return `${API_PREFIX}${path}`;
}

type ChainMiddleware = middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

/**
 * The chain of one operation. A list whose query takes `cursor` is built by `listHandler`
 * (list-handler.ts), which adds the cursor middleware: a module of its own, so the other functions
 * do not bundle the cursor's signing key and the Secrets Manager client that reads it in AWS.
 */
export function apiHandler<R extends RouteDefinition>(route: R, lists: { cursorPage?: ChainMiddleware } = {}) {
  if (acceptsCursor(route) !== !!lists.cursorPage) {
    throw new Error(`${route.operationId}: a list whose query takes \`cursor\` is built by listHandler, any other route by apiHandler`);
  }
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(httpEnvelope(route.response.status, route.deprecated ? deprecationHeaders(route.deprecated) : {}))
    .use(headerValues())
    .use(authorize(route))
    .use(jsonBody(route))
    .use(validateRequest(route))
    .use(ifMatch(route));
  if (lists.cursorPage) chain.use(lists.cursorPage);

  return {
    /** `replay` is required of an idempotent route: the chain answers a retry with it, before the handler. */
    handler(fn: (request: ApiRequest<R>) => Promise<ApiResult<R>>, options: { replay?: ReplayAnswer<R> } = {}): LambdaHandler {
      const { replay } = options;
      if (route.idempotent && !replay) throw new Error(`${route.operationId} is idempotent: its handler must say how to replay`);
      const answer = async (event: APIGatewayProxyEventV2, context: ApiContext): Promise<APIGatewayProxyStructuredResultV2> => {
        const input = context.input!;
        const request = {
          idempotency: route.idempotent ? idempotentRequestOf(route, event, input.body) : undefined,
          params: input.params,
          query: input.query,
          body: input.body,
          headers: event.headers ?? {},
          auth: context.auth!,
          precondition: context.precondition,
          page: context.page,
          requestId: context.requestId,
        } as ApiRequest<R>;
        const { remembered } = context;
        let result: ApiResult<R>;
        if (remembered && request.idempotency && replay) {
          // Another request under the same key is a 409 (replayOf); the same one gets its first answer.
          result = await replay(replayOf(remembered, request.idempotency), request);
          result.headers = { ...result.headers, ...replayHeaders(true) };
        } else {
          result = await fn(request);
        }
        const { location } = route.response;
        if (location && [201, 202].includes(result.status ?? route.response.status)) {
          result.headers = { Location: locationOf(location, result.body), ...result.headers };
        }
        const { contentType } = route.response;
        if (contentType) {
          const rendered: HandlerResult = { ...result, contentType: `${contentType}; charset=utf-8` };
          if (contentType === 'image/svg+xml') rendered.headers = { ...SVG_RESPONSE_HEADERS, ...result.headers };
          return rendered as unknown as APIGatewayProxyStructuredResultV2;
        }
        return result as unknown as APIGatewayProxyStructuredResultV2;
      };
      return metered(
        route.operationId,
        chain.handler((event, context) =>
          runBehindVerdict(context.writesAllowed ?? Promise.resolve(), () => answer(event, context)),
        ) as unknown as LambdaHandler,
      );
    },
  };
}
