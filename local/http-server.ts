/**
 * The sandbox's API Gateway: turns real HTTP requests into HTTP API (payload format 2.0) events,
 * routes them by the same manifest the CDK stack deploys, runs the handler and writes its result.
 * Unmatched requests go to the same function as API Gateway's `$default` route (404, or 405 for a
 * known path with another method).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { NOT_FOUND_HANDLER, routes } from '../lib/manifest.ts';
import { GATEWAY_ANSWERS, GATEWAY_HEADER_BYTES, type GatewayAnswer } from '../lib/platform/gateway-answers.ts';
import { routeMatcher } from '../lib/platform/http/route-match.ts';
import { fullPathOf } from '../lib/platform/route.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../lib/platform/timeouts.ts';
import { costLogFile, logCost } from './consumed-capacity.ts';
import { type InvocationStats, invocationStats, sequentialDepth } from './instrumentation.ts';
import { FunctionTimeoutError, invokeWithTimeout, loadHandler } from './lambda-runtime.ts';
import { throttlesIn } from './partition-throttle.ts';

/**
 * Lambda's limit on a synchronous invocation's request payload, 6 MB
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html): 6,291,456 bytes of the
 * whole event API Gateway sends (body, headers, request context; a binary body base64-encoded), lower
 * than API Gateway's own 10 MB (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html),
 * so it is the limit a client meets. A body alone past it is refused before it is buffered whole.
 */
const LAMBDA_REQUEST_PAYLOAD_BYTES = 6 * 1024 * 1024;
const MAX_BODY_BYTES = LAMBDA_REQUEST_PAYLOAD_BYTES;

/**
 * How much of a request's head (request line, header names and values) Node parses: far more than
 * API Gateway's 10,240 bytes of request line and header values (gateway-answers.ts), so every
 * request API Gateway would take is parsed and measured by that rule. A head past even this (a
 * 2 MB header) is answered the same 431 from `clientError`, not Node's empty one or a reset.
 */
const SANDBOX_HEAD_BYTES = 64 * 1024;

/** What API Gateway counts against its header quota: the request line and every header's value (names not included). */
function requestLineAndHeaderValueBytes(req: IncomingMessage): number {
  let bytes = Buffer.byteLength(`${req.method} ${req.url} HTTP/${req.httpVersion}`);
  for (let i = 1; i < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(req.rawHeaders[i]!);
  return bytes;
}

/**
 * NUL in a header value: refused as API Gateway refuses it (GATEWAY_ANSWERS.malformedRequest). Node's
 * parser runs lenient on header values (`insecureHTTPParser`) so that the other control characters
 * reach the function, as an HTTP/2 front end passes them (lib/platform/http/middleware/header-values.ts);
 * it still refuses a CR in a value and a header name that is no token (the 400 from `clientError`).
 * Node offers no flag for header values alone: its other leniencies (bare LF line ends, the framing
 * of chunked bodies, `Transfer-Encoding` beside `Content-Length`) guard against request smuggling
 * through a proxy, and the sandbox listens on 127.0.0.1 with none in front.
 */
function holdsNul(req: IncomingMessage): boolean {
  for (let i = 1; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.includes('\u0000')) return true;
  return false;
}

const router = routeMatcher(routes);

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isTextual(contentType: string | undefined): boolean {
  return !contentType || /^(text\/|application\/(json|.*\+json|x-www-form-urlencoded|xml))/i.test(contentType);
}

/** Build the payload 2.0 event exactly as API Gateway would: lower-cased headers, repeated values comma-joined. */
function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  requestId: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const textual = isTextual(req.headers['content-type']);
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie ? req.headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'sandbox',
      domainName: req.headers.host ?? 'localhost',
      domainPrefix: (req.headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length > 0 ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !textual,
  };
}

/**
 * API Gateway's HTTP API names every request it answers in an `apigw-requestid` response header,
 * whether the function answered or API Gateway did; our envelope's `X-Request-Id` comes from the function.
 */
const GATEWAY_REQUEST_ID = 'apigw-requestid';

function writeResult(
  res: ServerResponse,
  result: APIGatewayProxyStructuredResultV2,
  stats: InvocationStats,
  gatewayRequestId: string,
): void {
  const headers: Record<string, string | string[]> = { [GATEWAY_REQUEST_ID]: gatewayRequestId };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  headers['X-Sandbox-DynamoDB-Calls'] = String(stats.dynamodbCalls);
  headers['X-Sandbox-DynamoDB-Depth'] = String(sequentialDepth(stats.dynamodbTimeline ?? []));
  // The usage writes the instance made beside this request's work (what earlier requests left): not its own calls.
  if (stats.usageWrites) headers['X-Sandbox-Usage-Writes'] = String(stats.usageWrites);
  // With SANDBOX_PARTITION_SCALE: how many of those requests DynamoDB throttled (retried or not).
  if (throttlesIn(stats) > 0) headers['X-Sandbox-DynamoDB-Throttles'] = String(throttlesIn(stats));
  const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}

/**
 * What API Gateway itself answers when it refuses a request before or around the function: its own
 * `{"message": …}` body, never our envelope, and no `X-Request-Id` (only its `apigw-requestid`).
 */
function gatewayAnswer(res: ServerResponse, answer: GatewayAnswer, gatewayRequestId: string): void {
  res.writeHead(answer.status, { 'Content-Type': 'application/json', [GATEWAY_REQUEST_ID]: gatewayRequestId });
  res.end(JSON.stringify({ message: answer.message }));
}

/**
 * API Gateway's answer to a head Node stops parsing (past SANDBOX_HEAD_BYTES: the 431; one it cannot
 * parse: the 400), written on the socket as gatewayAnswer writes it. The client may still be sending
 * its head: the rest is read and dropped, and the socket ends once the client ends, so it reads the
 * answer instead of meeting a reset.
 */
function unparsedHeadAnswer(socket: Duplex, { status, message }: GatewayAnswer): void {
  const body = JSON.stringify({ message });
  socket.write(
    `HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json\r\n${GATEWAY_REQUEST_ID}: ${randomUUID()}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.on('end', () => socket.end());
  socket.resume();
  // A client that never stops sending is cut off.
  setTimeout(() => socket.destroy(), 10_000).unref();
}

export function createApiServer(options: { log?: (line: string) => void } = {}): Server {
  const costLog = costLogFile();
  const server = createServer({ maxHeaderSize: SANDBOX_HEAD_BYTES, insecureHTTPParser: true }, async (req, res) => {
    const started = performance.now();
    const gatewayRequestId = randomUUID();
    try {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      if (holdsNul(req)) {
        options.log?.(`${req.method} ${url.pathname} → 400 by API Gateway (NUL in a header value)`);
        return gatewayAnswer(res, GATEWAY_ANSWERS.malformedRequest, gatewayRequestId);
      }
      if (requestLineAndHeaderValueBytes(req) > GATEWAY_HEADER_BYTES) {
        options.log?.(
          `${req.method} ${url.pathname} → 431 by API Gateway (request line and header values over ${GATEWAY_HEADER_BYTES} bytes)`,
        );
        return gatewayAnswer(res, GATEWAY_ANSWERS.headersTooLarge, gatewayRequestId);
      }
      const body = await readBody(req);
      const tooLong = () => {
        options.log?.(`${req.method} ${url.pathname} → 413 by API Gateway (event over Lambda's 6 MB payload limit)`);
        gatewayAnswer(res, GATEWAY_ANSWERS.requestTooLong, gatewayRequestId);
      };
      if (body === 'too-large') return tooLong();
      const method = (req.method ?? 'GET').toUpperCase();
      const found = router.match(method, url.pathname);
      const routeKey = found ? `${found.route.method} ${fullPathOf(found.route)}` : '$default';
      const handlerFile = found ? found.route.handler : NOT_FOUND_HANDLER;
      const event = toApiGatewayEvent(
        req,
        url,
        body,
        routeKey,
        found?.route.path.includes('{') ? found.params : undefined,
        gatewayRequestId,
      );
      // A body just under 6 MB still fails in AWS once the event around it passes the limit.
      if (Buffer.byteLength(JSON.stringify(event)) > LAMBDA_REQUEST_PAYLOAD_BYTES) return tooLong();
      const handler = await loadHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(handlerFile);
      // Its DynamoDB requests are checked against the synthesized policy of the function deploying `handlerFile`.
      const stats: InvocationStats = { dynamodbCalls: 0, dynamodbCommands: [], dynamodbTimeline: [], handler: handlerFile };
      if (costLog) stats.capacity = { readUnits: 0, writeUnits: 0 };
      const invoked = performance.now();
      const timeoutSeconds = found?.route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
      const result = await invocationStats.run(stats, () =>
        invokeWithTimeout(handler, event, found?.route.operationId ?? 'notFound', timeoutSeconds, (request) =>
          options.log?.(`${method} ${url.pathname}: ${request} cut off, sent after the function timed out`),
        ),
      );
      writeResult(res, result, stats, gatewayRequestId);
      if (costLog && stats.capacity) {
        const { readUnits, writeUnits } = stats.capacity;
        const operationId = found?.route.operationId ?? 'notFound';
        logCost(costLog, {
          operationId,
          status: result.statusCode ?? 200,
          ms: performance.now() - invoked,
          calls: stats.dynamodbCalls,
          readUnits,
          writeUnits,
        });
      }
      options.log?.(
        `${method} ${url.pathname} → ${result.statusCode} (${Math.round(performance.now() - started)} ms, ${stats.dynamodbCalls} DynamoDB calls, depth ${sequentialDepth(stats.dynamodbTimeline ?? [])}${throttlesIn(stats) > 0 ? `, ${throttlesIn(stats)} throttled` : ''})`,
      );
    } catch (error) {
      if (error instanceof FunctionTimeoutError && !res.headersSent) {
        // What API Gateway answers when the function times out: its own body, not our envelope.
        options.log?.(`${req.method} ${req.url} → function ${error.message}`);
        return gatewayAnswer(res, GATEWAY_ANSWERS.functionFailed, gatewayRequestId);
      }
      // What API Gateway answers when the function fails outside our code (it threw past the
      // middleware, or could not load): its own 500; the details stay in our console, as in CloudWatch.
      options.log?.(`Integration failure: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) gatewayAnswer(res, GATEWAY_ANSWERS.functionFailed, gatewayRequestId);
      else res.end();
    }
  });
  // Node's parser reports each further chunk of a refused head again: the first report answers it.
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (refused.has(socket)) return;
    if (!socket.writable) return socket.destroy();
    refused.add(socket);
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      options.log?.(`A request head over ${SANDBOX_HEAD_BYTES} bytes → 431 by API Gateway`);
      return unparsedHeadAnswer(socket, GATEWAY_ANSWERS.headersTooLarge);
    }
    // Anything else HTTP cannot parse (a CR in a value, a header name that is no token): API Gateway's 400, not Node's bare one.
    options.log?.(`A request HTTP cannot parse (${error.code}) → 400 by API Gateway`);
    return unparsedHeadAnswer(socket, GATEWAY_ANSWERS.malformedRequest);
  });
  return server;
}
