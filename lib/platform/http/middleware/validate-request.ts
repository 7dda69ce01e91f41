/**
 * Validates path parameters, query string and body against the route's zod schemas and puts the
 * parsed values on `request.context.input`. Routes without a query schema accept no query
 * parameters at all; a route without a body schema ignores the body (jsonBody() answers a body not
 * sent as JSON, or not JSON, before this).
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type * as z from 'zod/mini';
import { ValidationError, type ValidationIssue } from '../../errors.ts';
import type { RouteDefinition, Schema } from '../../route.ts';
import { noQuery } from '../../schemas.ts';
import type { ApiContext } from '../context.ts';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

export function toIssues(where: string, error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => {
    const keysNamed = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = [where, ...issue.path.map(String)].join('.');
    const message = keysNamed.length > 0 ? `unknown field ${keysNamed.map((k) => `"${k}"`).join(', ')}` : issue.message;
    return { path, message };
  });
}

function parse(schema: Schema, value: unknown, where: string, code: ConstructorParameters<typeof ValidationError>[0]) {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(code, toIssues(where, result.error));
  return result.data;
}

export function validateRequest(
  route: Pick<RouteDefinition, 'request'>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  const { params, query, body } = route.request ?? {};
  return {
    before: (request: Request) => {
      const event = request.event;
      const input = { params: undefined as unknown, query: undefined as unknown, body: undefined as unknown };
      if (params) input.params = parse(params, event.pathParameters ?? {}, 'path', 'invalid_path');
      input.query = parse(query ?? noQuery, event.queryStringParameters ?? {}, 'query', 'invalid_query');
      if (body) {
        // jsonBody() parsed any body sent (a JSON string too, e.g. `"AAA"`); none at all is refused here.
        if (event.body === undefined || event.body === '') {
          throw new ValidationError('invalid_body', [{ path: 'body', message: 'a JSON request body is required' }]);
        }
        input.body = parse(body, event.body, 'body', 'invalid_body');
      }
      request.context.input = input;
    },
  };
}
