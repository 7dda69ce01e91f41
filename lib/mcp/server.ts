/**
 * One MCP exchange, served by the official SDK (`@modelcontextprotocol/server`): a fresh server per
 * request, holding nothing between requests (stateless Streamable HTTP), answering with one JSON body.
 *
 * Both protocol eras the SDK speaks are served: the 2026-07-28 revision (no handshake; `server/discover`)
 * by its `createMcpHandler`, and 2025-era clients (the `initialize` handshake) by its
 * `WebStandardStreamableHTTPServerTransport` without sessions. The two are told apart by the SDK's own
 * `isLegacyRequest`, as its documentation shows; the handler's built-in legacy leg is not used because
 * it answers 2025-era requests as an event stream, and this server answers JSON.
 */
import {
  createMcpHandler,
  fromJsonSchema,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { ApiError } from '../platform/errors.ts';
import { API_VERSION } from '../platform/version.ts';
import type { ApiAnswer, ApiCalls } from './api-calls.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { argumentsCheckedByTheApi, isRefusal, refusalOf, requestOf, resultOf, type ToolResult, toolError } from './tool-calls.ts';
import type { AgentTool } from './tools.ts';

/** What one MCP request may use, and what it learned on the way. */
export interface Exchange {
  /** The tools `tools/list` shows (those the caller's key and workspace allow), or for a tool call the one called (the API checks the key). */
  tools: readonly AgentTool[];
  api: ApiCalls;
  /** The caller's workspace, when its `GET /me` was read. */
  workspace: string | undefined;
  /** The API refused a tool call's key: the MCP request itself is then answered 401, as every route answers a bad key. */
  unauthenticated?: ApiAnswer;
}

/** How long a client may keep `tools/list` (2026-07-28 cache hints): a key's permissions rarely change. */
const TOOLS_LIST_TTL_MS = 5 * 60_000;

function instructionsOf(workspace: string | undefined): string {
  return [
    `Tools of the Customer Experience Portal API${workspace ? ` for the workspace "${workspace}"` : ''}: its ideas, customer journeys, ` +
      'surveys (definitions and summaries; never what a respondent answered), standard operating procedures and knowledge bank.',
    "Each tool is one API operation run with the caller's Developer key: it can do what the key's permissions allow and nothing more.",
    'Lists take `limit` and `cursor`: pass `pagination.nextCursor` of one page as `cursor` to get the next.',
    'A write that takes `ifMatch` wants the `etag` of your latest read of that record.',
    'Published knowledge-bank articles are resources (`kb://articles/{articleId}`, Markdown, `?lang=ar` for Arabic), and a journey ' +
      "version's map is one (`journey://{journeyId}/versions/{versionId}/map.svg`); prompts triage ideas, summarise a survey, draft an article.",
    "A refused call is a tool error whose text starts with the API's error code (`missing_permission`, `invalid_body`, `not_found`, " +
      "`version_conflict`, `rate_limited`…) and whose structured content is the API's error body.",
  ].join(' ');
}

async function callTool(exchange: Exchange, tool: AgentTool, args: Record<string, unknown>): Promise<ToolResult> {
  const request = requestOf(tool, args);
  if (isRefusal(request)) return toolError(request);
  let answer: ApiAnswer;
  try {
    answer = await exchange.api.send(request);
  } catch (failure) {
    const timedOut = (failure as Error).name === 'TimeoutError';
    const what = timedOut ? 'The API did not answer in time' : 'The API could not be reached';
    return toolError(refusalOf(new ApiError(502, 'internal_error', `${what}; nothing is known to have changed`)));
  }
  if (answer.status === 401) exchange.unauthenticated = answer;
  return resultOf(answer);
}

function serverOf(exchange: Exchange): McpServer {
  const server = new McpServer(
    { name: 'cx-portal', title: 'Customer Experience Portal', version: API_VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
      instructions: instructionsOf(exchange.workspace),
      cacheHints: { 'tools/list': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'private' } },
    },
  );
  for (const tool of exchange.tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: fromJsonSchema<Record<string, unknown>>(tool.inputSchema, argumentsCheckedByTheApi),
        annotations: tool.annotations,
      },
      (args) => callTool(exchange, tool, args),
    );
  }
  registerResources(server, exchange.api);
  registerPrompts(server, exchange.api);
  return server;
}

/** Serves one MCP request (a web-standard Request whose JSON body is already parsed) and answers it. */
export async function serveMcp(request: Request, parsedBody: unknown, exchange: Exchange): Promise<Response> {
  if (await isLegacyRequest(request, parsedBody)) {
    const server = serverOf(exchange);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody });
    } finally {
      await server.close();
    }
  }
  const modern = createMcpHandler(() => serverOf(exchange), { legacy: 'reject', responseMode: 'json' });
  try {
    return await modern.fetch(request, { parsedBody });
  } finally {
    await modern.close();
  }
}
