/**
 * The middy chain every API operation runs, in this order:
 *   1. httpEnvelope   request id, API-Version (and a deprecated route's Deprecation/Sunset),
 *                     success rendering, the one error renderer (outermost)
 *   2. authorize      workspace → key → rate limit → suspension/module/permission
 *   3. jsonBody       malformed JSON → 400 (after auth: anonymous callers learn nothing)
 *   4. validateRequest  zod on path, query and body
 *   5. the handler function, which gets typed input and returns `{ body, headers?, status? }`
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { IdempotentRequest } from '../data/idempotency.ts';
import { API_PREFIX, type ApiRequest, type ApiResult, type RouteDefinition, SVG_RESPONSE_HEADERS } from '../route.ts';
import { deprecationHeaders } from '../version.ts';
import { idempotencyKeyOf, requestFingerprint } from './conditional-request.ts';
import type { ApiContext } from './context.ts';
import { authorize } from './middleware/authorize.ts';
import { type HandlerResult, httpEnvelope } from './middleware/http-envelope.ts';
import { jsonBody } from './middleware/json-body.ts';
import { validateRequest } from './middleware/validate-request.ts';

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: import('aws-lambda').Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** The Idempotency-Key of a creating POST, scoped to the operation on its concrete path. */
function idempotentRequestOf(
  route: RouteDefinition,
  headers: Record<string, string | undefined>,
  input: { params: unknown; body: unknown },
): IdempotentRequest | undefined {
  const key = idempotencyKeyOf(headers);
  if (key === undefined) return undefined;
  const params = (input.params ?? {}) as Record<string, string>;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
  return { key, scope: `${route.method} ${path}`, fingerprint: requestFingerprint(input.body) };
}

/** The `Location` of a created record: the route's template filled from the response body. */
function locationOf(template: string, body: unknown): string {
  const path = template.replace(/\{([\w.]+)\}/g, (_, field: string) => {
    const value = field.split('.').reduce<unknown>((at, name) => (at as Record<string, unknown> | undefined)?.[name], body);
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`Location ${template}: no ${field} in the response`);
    return encodeURIComponent(String(value));
  });
  return `${API_PREFIX}${path}`;
}

export function apiHandler<R extends RouteDefinition>(route: R) {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(httpEnvelope(route.response.status, route.deprecated ? deprecationHeaders(route.deprecated) : {}))
    .use(authorize(route))
    .use(jsonBody())
    .use(validateRequest(route));

  return {
    handler(fn: (request: ApiRequest<R>) => Promise<ApiResult<R>>): LambdaHandler {
      return chain.handler(async (event, context) => {
        const input = context.input!;
        const result = await fn({
          idempotency: route.idempotent ? idempotentRequestOf(route, event.headers ?? {}, input) : undefined,
          params: input.params,
          query: input.query,
          body: input.body,
          headers: event.headers ?? {},
          auth: context.auth!,
          requestId: context.requestId,
        } as ApiRequest<R>);
        const { location } = route.response;
        if (location && (result.status ?? route.response.status) === 201) {
          result.headers = { Location: locationOf(location, result.body), ...result.headers };
        }
        const { contentType } = route.response;
        if (contentType) {
          const rendered: HandlerResult = { ...result, contentType: `${contentType}; charset=utf-8` };
          if (contentType === 'image/svg+xml') rendered.headers = { ...SVG_RESPONSE_HEADERS, ...result.headers };
          return rendered as unknown as APIGatewayProxyStructuredResultV2;
        }
        return result as unknown as APIGatewayProxyStructuredResultV2;
      }) as unknown as LambdaHandler;
    },
  };
}

/** The same envelope for the few routes that take no Developer key (the OpenAPI document, not-found). */
export function publicHandler(successStatus: number) {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>().use(httpEnvelope(successStatus));
  return {
    handler(fn: (event: APIGatewayProxyEventV2) => Promise<HandlerResult>): LambdaHandler {
      return chain.handler(async (event) => (await fn(event)) as unknown as APIGatewayProxyStructuredResultV2) as unknown as LambdaHandler;
    },
  };
}
