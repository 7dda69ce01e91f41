/**
 * `POST /mcp` as a Lambda function: API Gateway's event becomes the web-standard Request the SDK
 * serves, and its Response the function's result. The chain is the API's own envelope, JSON parsing
 * and validation, without the key check: the key goes on to the API with every call (api-calls.ts).
 *
 * Each MCP request makes exactly one call to the API with the caller's key: a tool call makes its
 * operation's, anything else (`initialize`, `server/discover`, `tools/list`, a notification) makes
 * `GET /me`, which checks the key and says which tools it may use. A key the API refuses is this
 * route's refusal too (the same status, code and message), so a client with a bad key fails to connect.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { config } from '../platform/config.ts';
import { ApiError } from '../platform/errors.ts';
import type { LambdaHandler } from '../platform/http/api-handler.ts';
import type { ApiContext } from '../platform/http/context.ts';
import { headerValues } from '../platform/http/middleware/header-values.ts';
import { type HandlerResult, httpEnvelope } from '../platform/http/middleware/http-envelope.ts';
import { jsonBody } from '../platform/http/middleware/json-body.ts';
import { validateRequest } from '../platform/http/middleware/validate-request.ts';
import { workspaceSlugFrom } from '../platform/http/workspace-host.ts';
import { logger } from '../platform/logger.ts';
import type { RouteDefinition } from '../platform/route.ts';
import { ApiCalls, callerOf } from './api-calls.ts';
import { BrowserOriginRefused, RefusedByApi } from './errors.ts';
import { bearerChallenge } from './oauth/metadata.ts';
import type { McpMessage, McpQuery } from './schemas.ts';
import { type Exchange, serveMcp } from './server.ts';
import { type AgentTool, type Grant, toolsOfGrant } from './tools.ts';

/**
 * Messages that make their own call to the API, which checks the key: a tool's operation, a
 * resource's list or read, a prompt's data. Any other (`initialize`, `server/discover`, `tools/list`,
 * a notification) makes `GET /me`, which checks the key and says which tools it may use.
 */
const OWN_CALL = new Set(['tools/call', 'resources/list', 'resources/read', 'prompts/get']);

/** Time kept back from the function's deadline for answering after the API's call gave up. */
const DEADLINE_MARGIN_MS = 1_000;

/** The headers the SDK reads: the media types and MCP's own (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Param-*`…); never the key. */
const MCP_HEADER = /^(content-type|accept|last-event-id|mcp-.+)$/;

/** An `Accept` that takes a JSON answer: none, `*\/*`, `application/*` or `application/json`. */
const TAKES_JSON = /(^|,)\s*(\*\/\*|application\/\*|application\/json)\s*(;|,|$)/i;

/**
 * The web-standard Request the SDK serves: the MCP headers and the body the chain already parsed.
 * MCP clients accept `application/json, text/event-stream`, as the transport asks; this server only
 * ever answers JSON, so any caller that takes JSON (curl's `*\/*`, Postman's) is served as one of them.
 */
function requestOf(event: APIGatewayProxyEventV2, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && MCP_HEADER.test(name)) headers.set(name, value);
  }
  if (TAKES_JSON.test(headers.get('accept') ?? '*/*')) headers.set('accept', 'application/json, text/event-stream');
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(event.body) });
}

async function grantOf(api: ApiCalls): Promise<Grant & { workspace: string }> {
  const me = await api.send({ method: 'GET', path: '/me' });
  if (me.status !== 200) throw new RefusedByApi(me);
  return (me.body as { data: Grant & { workspace: string } }).data;
}

/** The workspace's challenge, when the request selected one (a 400 for the workspace comes before any 401). */
function bearerChallengeOf(headers: Record<string, string | undefined>): string | undefined {
  try {
    return bearerChallenge(workspaceSlugFrom(headers));
  } catch {
    return undefined;
  }
}

interface McpContext extends ApiContext {
  /** The caller's calls to the API, once the workspace and the key's shape passed. */
  api?: ApiCalls;
}

type McpRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, McpContext>;

/**
 * The API's order of checks on `/mcp` (docs/using-the-api.md): the workspace (400) and the key's
 * shape (401) before anything else, without a call; then no other refusal (an `Origin`'s 403, a body
 * the chain refuses, 415 or 400) before the API has said whether the key is valid, so a caller
 * without a valid key learns nothing about the request's shape. A request that made no call to the
 * API by the time it is refused makes `GET /me` first, and the API's refusal of the key wins.
 */
function keyBeforeRequest(
  baseUrl: () => string,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, McpContext> {
  return {
    before: async (request: McpRequest) => {
      const { event, context } = request;
      context.api = new ApiCalls({
        baseUrl: baseUrl(),
        caller: await callerOf(event.headers ?? {}),
        requestId: context.requestId,
        deadline: Date.now() + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS,
      });
      if (event.headers?.origin !== undefined) throw new BrowserOriginRefused();
    },
    onError: async (request: McpRequest) => {
      const api = request.context.api;
      if (api && api.sent === 0 && !(request.error instanceof RefusedByApi)) {
        try {
          await grantOf(api);
        } catch (refusal) {
          request.error = refusal as Error;
        }
      }
      // Every 401 says where an OAuth client learns how to get a token (RFC 9728 §5.1).
      const error = request.error;
      if (error instanceof ApiError && error.status === 401) {
        const challenge = bearerChallengeOf(request.event.headers ?? {});
        if (challenge) error.headers['WWW-Authenticate'] = challenge;
      }
    },
  };
}

export function mcpHandler(route: RouteDefinition, tools: () => readonly AgentTool[]): LambdaHandler {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, McpContext>()
    .use(httpEnvelope(route.response.status))
    .use(keyBeforeRequest(config.apiBaseUrl))
    .use(headerValues())
    .use(jsonBody(route))
    .use(validateRequest(route));
  return chain.handler(async (event, context): Promise<APIGatewayProxyStructuredResultV2> => {
    const api = context.api!;
    const { body: message, query } = context.input as { body: McpMessage; query: McpQuery };
    const { modules } = query;
    const offered = modules
      ? tools().filter(({ route: operation }) => operation.module !== null && modules.includes(operation.module))
      : tools();
    const exchange: Exchange = { tools: offered, api, workspace: undefined };
    if (OWN_CALL.has(message.method) && message.method !== 'tools/call') {
      // Its own call to the API checks the key (a resource's list or read, a prompt's data).
    } else if (message.method === 'tools/call') {
      // The API checks the key; the server needs only the tool called (an unknown name finds none).
      exchange.tools = offered.filter((tool) => tool.name === message.params?.name);
    } else {
      const grant = await grantOf(api);
      exchange.tools = toolsOfGrant(exchange.tools, grant);
      exchange.workspace = grant.workspace;
    }
    const response = await serveMcp(requestOf(event, `${config.apiBaseUrl()}${route.path}`), event.body, exchange);
    if (exchange.unauthenticated) throw new RefusedByApi(exchange.unauthenticated);
    // Answered without a call (a tool's arguments refused before its request, an unknown tool, a
    // message the SDK refuses): the key is checked before that answer goes to anyone.
    if (api.sent === 0) await grantOf(api);
    logger.info('MCP request', { method: message.method, tool: message.params?.name, status: response.status });
    const result: HandlerResult = {
      status: response.status,
      body: await response.text(),
      contentType: response.headers.get('content-type') ?? 'application/json',
      headers: api.rateLimit,
    };
    return result as unknown as APIGatewayProxyStructuredResultV2;
  }) as unknown as LambdaHandler;
}
