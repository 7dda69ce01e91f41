/**
 * Outermost middleware: gives the request an id, turns a handler's result into an API Gateway
 * response, and renders every error, from any middleware or handler, as the spec's envelope.
 * Registered first so its `after`/`onError` run last and see everything.
 */
import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { busyAnswer } from '../../busy.ts';
import { ApiError } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { API_VERSION } from '../../version.ts';
import type { ApiContext } from '../context.ts';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * The envelope body and status of any thrown value; unknown errors reveal nothing. AWS pushing back
 * (throttling, no answer in time, after the retries already made) is 503 `service_busy` with
 * `Retry-After`, not the 502 of a defect (lib/platform/busy.ts).
 */
export function renderError(thrown: unknown): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const error = thrown instanceof ApiError ? thrown : (busyAnswer(thrown) ?? thrown);
  if (error instanceof ApiError) {
    const body: Record<string, unknown> = { ok: false, error: error.code, message: error.message, ...error.details };
    if (error.issues) body.issues = error.issues;
    return { status: error.status, body, headers: error.headers };
  }
  return {
    status: 502,
    body: { ok: false, error: 'internal_error', message: 'The service could not complete the request' },
    headers: {},
  };
}

export interface HandlerResult {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
  /** Sends `body`, a string, as this content type instead of JSON (the API reference page). */
  contentType?: string;
}

/**
 * `extraHeaders` go on every response of the route, success or error (a deprecated route's
 * `Deprecation` and `Sunset`): a client learns of a sunset even from a 401.
 */
export function httpEnvelope(
  successStatus: number,
  extraHeaders: Record<string, string> = {},
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  return {
    before: (request: Request) => {
      // Keep a caller's or the gateway's id when it is sane, so logs can be joined end to end.
      const given = request.event.headers?.['x-request-id'];
      request.context.requestId = given && REQUEST_ID.test(given) ? given : (request.event.requestContext?.requestId ?? randomUUID());
      request.context.responseHeaders = { 'X-Request-Id': request.context.requestId, 'API-Version': API_VERSION, ...extraHeaders };
      logger.appendKeys({ requestId: request.context.requestId });
    },
    after: (request: Request) => {
      const result = request.response as unknown as HandlerResult;
      const headers = { ...request.context.responseHeaders, ...result.headers };
      request.response =
        result.contentType && typeof result.body === 'string'
          ? { statusCode: result.status ?? successStatus, headers: { 'Content-Type': result.contentType, ...headers }, body: result.body }
          : jsonResponse(result.status ?? successStatus, result.body, headers);
    },
    onError: (request: Request) => {
      const { status, body, headers } = renderError(request.error);
      if (status === 503) {
        logger.warn('Request answered busy', { error: request.error as Error, routeKey: request.event.routeKey });
      } else if (status >= 500) {
        logger.error('Request failed', { error: request.error as Error, routeKey: request.event.routeKey });
      } else {
        logger.info('Request rejected', { status, code: body.error });
      }
      request.response = jsonResponse(status, body, { ...request.context.responseHeaders, ...headers });
    },
  };
}
