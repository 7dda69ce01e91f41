/**
 * Parses a JSON body with @middy/http-json-body-parser and turns its malformed-JSON error into our
 * 400 `invalid_json`. Other content types are left as a string for validateRequest to reject.
 */
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { BadRequestError } from '../../errors.ts';
import type { ApiContext } from '../context.ts';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

export function jsonBody(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  const parser = httpJsonBodyParser({ disableContentTypeError: true });
  return {
    before: async (request: Request) => {
      if (!request.event.body) return;
      try {
        await parser.before!(request as never);
      } catch {
        throw new BadRequestError('invalid_json', 'The request body is not valid JSON');
      }
    },
  };
}
