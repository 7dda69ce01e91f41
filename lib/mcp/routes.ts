/** The MCP area: the remote MCP server, and its read-only variant (docs/mcp.md). */
import { routesOf } from '../platform/route.ts';
import { mcpErrorResponse, mcpMessage, mcpQuery, mcpResponse } from './schemas.ts';

const route = routesOf({ tag: 'MCP', module: null, functions: 'functions/mcp' });

/**
 * Under API Gateway's 30 s: the server waits for one call to the API (a tool's operation, each with
 * its own 10 s timeout, or `GET /me`), and answers before the gateway gives up on it.
 */
const MCP_TIMEOUT_SECONDS = 28;

/** What both MCP routes take and answer: one JSON-RPC message in, one out (docs/mcp.md). */
const mcpExchange = {
  request: {
    query: mcpQuery,
    body: mcpMessage,
    headers: {
      'MCP-Protocol-Version': { description: 'The negotiated protocol revision, which MCP clients send after connecting' },
    },
  },
  response: {
    status: 200,
    body: mcpResponse,
    description:
      "The JSON-RPC response: a result (a tool's refusal is a result with `isError: true`), or a JSON-RPC error for a request " +
      'the MCP layer refuses in the protocol (an unknown method or tool, bad params)',
    otherAnswers: {
      202: { description: 'A notification (a message without `id`) was taken: no body' },
      400: {
        description:
          'A JSON-RPC error response (its `error` says why): the MCP layer cannot serve the request (an unsupported `MCP-Protocol-Version`, a malformed ' +
          '2026-07-28 `_meta` envelope), as MCP clients expect',
        body: mcpErrorResponse,
      },
      406: {
        description:
          'A JSON-RPC error response (its `error` says why): the `Accept` header takes no JSON (send `application/json, text/event-stream`, as MCP clients do, or none)',
        body: mcpErrorResponse,
      },
    },
  },
  errors: {
    400: { invalid_body: 'A body that is no JSON-RPC message' },
    403: { origin_not_allowed: true },
  },
  auth: 'forwarded',
  permissions: [],
  // The server secret, to forward an OAuth access token in the one form the API takes (lib/platform/auth/derived-key-token.ts).
  needs: ['api-base-url', 'keyed-hash'],
  timeoutSeconds: MCP_TIMEOUT_SECONDS,
} as const;

export const mcpServer = route({
  operationId: 'callMcpServer',
  method: 'POST',
  path: '/mcp',
  handler: 'functions/mcp/mcp-server.ts',
  summary: 'The remote MCP server (Streamable HTTP)',
  description:
    'A [Model Context Protocol](https://modelcontextprotocol.io) server for AI agents, over the Streamable HTTP transport: ' +
    'stateless (no session, no `GET` stream), one JSON-RPC message per request, one JSON response (to any `Accept` that ' +
    'takes JSON; MCP clients send `application/json, text/event-stream`); `202` with no body for a notification. ' +
    'It speaks the 2026-07-28 revision and the 2025 revisions (`initialize`). ' +
    "Its tools are this API's reads and safe writes, generated from the route manifest (which ones and why: the guide “MCP server”, section “Which operations are tools”); " +
    '`tools/list` shows only those the key holds every permission of, in a module the workspace has on. ' +
    "A tool call runs its operation through this API with the caller's key and workspace, so its checks, rate limit and errors " +
    "are the operation's own: a refusal is a tool result with `isError: true` whose structured content is the operation's error body. " +
    "Each request makes one call to the API and counts once against the key's rate limit: the tool's operation, or `GET /me` for anything else. " +
    'A key the API refuses is refused here with the same answer (401, 403 `workspace_suspended`, 429).',
  ...mcpExchange,
});

export const mcpServerReadOnly = route({
  operationId: 'callMcpServerReadOnly',
  method: 'POST',
  path: '/mcp/readonly',
  handler: 'functions/mcp/mcp-server-read-only.ts',
  summary: 'The remote MCP server, read tools only',
  description:
    'The same server as `POST /mcp`, offering only the tools that read (`readOnlyHint`), whatever the key may do: for an agent ' +
    'that should look and never change anything, with a key that may also write (a person’s own key). `?modules=` narrows it ' +
    'further. A write tool called here is unknown (a JSON-RPC error).',
  ...mcpExchange,
});
