/**
 * The same envelope as every API operation's (http-envelope.ts) for the few routes that take no
 * Developer key: the API index, the OpenAPI document, the reference page, not-found. A module of its
 * own, apart from api-handler.ts, so these functions do not load the key check and the DynamoDB
 * client they never use (a smaller bundle and a shorter cold start: docs/latency.md).
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { LambdaHandler } from './api-handler.ts';
import type { ApiContext } from './context.ts';
import { type HandlerResult, httpEnvelope } from './middleware/http-envelope.ts';

export function publicHandler(successStatus: number) {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>().use(httpEnvelope(successStatus));
  return {
    handler(fn: (event: APIGatewayProxyEventV2) => Promise<HandlerResult>): LambdaHandler {
      return chain.handler(async (event) => (await fn(event)) as unknown as APIGatewayProxyStructuredResultV2) as unknown as LambdaHandler;
    },
  };
}
