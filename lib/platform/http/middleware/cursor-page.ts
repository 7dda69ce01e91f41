/**
 * A list's page (`request.page`), for a route whose query takes `cursor`: where it starts, from
 * `offset` or from a cursor found genuine and issued for this workspace and this list as the
 * request selects it (400 `invalid_cursor` otherwise; lib/platform/pagination.ts), before the
 * operation reads anything. The handler's `paginate(page, …)` signs the next cursor the same way.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { pageStartOf } from '../../pagination.ts';
import { acceptsCursor, type RouteDefinition } from '../../route.ts';
import type { ApiContext } from '../context.ts';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;
type PageQuery = { limit: number; offset: number; cursor?: string };

export function cursorPage(
  route: Pick<RouteDefinition, 'operationId' | 'request' | 'cursorBinds'>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  if (!acceptsCursor(route)) throw new Error(`${route.operationId}: its query takes no cursor`);
  return {
    before: async (request: Request) => {
      const { input, auth } = request.context;
      request.context.page = await pageStartOf(route, { params: input!.params, query: input!.query as PageQuery, auth: auth! });
    },
  };
}
