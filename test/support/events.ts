/** Builds API Gateway HTTP API (payload 2.0) events for invoking handlers directly. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export function apiEvent(overrides: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: string;
}): APIGatewayProxyEventV2 {
  const method = overrides.method ?? 'GET';
  const path = overrides.path ?? '/api/v1/test';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(overrides.query ?? {}).toString(),
    headers: overrides.headers ?? {},
    queryStringParameters: overrides.query,
    pathParameters: overrides.pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test',
      domainPrefix: 'test',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'test-request',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: overrides.body,
    isBase64Encoded: false,
  };
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '256',
    awsRequestId: 'aws-request',
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
