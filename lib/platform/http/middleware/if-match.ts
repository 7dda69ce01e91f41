/**
 * The route's declared `If-Match` (route.ts `request.headers`), parsed once for the handler
 * (`request.precondition`): a malformed one is 400 `invalid_header`, a required one missing 400
 * `if_match_required`, one message for every route. It runs after validation, so the order of
 * checks holds (docs/using-the-api.md): the request's shape, then its precondition, then the operation.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDefinition } from '../../route.ts';
import { declaredPrecondition } from '../conditional-request.ts';
import type { ApiContext } from '../context.ts';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

export function ifMatch(
  route: Pick<RouteDefinition, 'request'>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  const declaration = route.request?.headers?.['If-Match'];
  return {
    before: (request: Request) => {
      request.context.precondition = declaredPrecondition(declaration, request.event.headers ?? {});
    },
  };
}
