/**
 * Validates path parameters, query string and body against the route's zod schemas and puts the
 * parsed values on `request.context.input`. Routes without a query schema accept no query
 * parameters at all; a route without a body schema ignores the body (jsonBody() answers a body not
 * sent as JSON, or not JSON, before this). A route's body is a JSON object: any other JSON value
 * is refused before its schema runs.
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

/** What a JSON value that is not an object is, for the message that refuses it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * The message of a required member that is not there: its name, and that it is required (with the
 * values it takes, for an enum). zod's own names neither ("Invalid input: expected string, received
 * undefined"). A per-parse error map, so a schema's own message still wins.
 */
const missingIsRequired: z.core.$ZodErrorMap = (issue) => {
  const name = issue.path?.at(-1);
  if (issue.input !== undefined || name === undefined) return undefined;
  // A member of one of several shapes (a voter: `{externalId}` or `{email}`) is as required as any other.
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union') return `\`${String(name)}\` is required`;
  if (issue.code === 'invalid_value')
    return `\`${String(name)}\` is required: one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return undefined;
};

function parse(schema: Schema, value: unknown, where: string, code: ConstructorParameters<typeof ValidationError>[0]) {
  const result = schema.safeParse(value, { error: missingIsRequired });
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
        const sent: unknown = event.body;
        if (sent === undefined) throw new ValidationError('invalid_body', [{ path: 'body', message: 'a JSON request body is required' }]);
        // Every body is a JSON object (test/unit/route-manifest.test.ts holds each route's schema to it), so
        // anything else is refused here, before any refinement of a schema runs on it: a refinement is
        // written for the object its schema parses, and one that reads `body.content` threw on `null` (a 502).
        if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) {
          throw new ValidationError('invalid_body', [{ path: 'body', message: `must be a JSON object, not ${kindOf(sent)}` }]);
        }
        input.body = parse(body, sent, 'body', 'invalid_body');
      }
      request.context.input = input;
    },
  };
}
