/**
 * What travels over `POST /mcp`: one JSON-RPC 2.0 message per request (MCP's Streamable HTTP
 * transport; the current revision has no batches) and one JSON-RPC response. The shapes are MCP's
 * own (https://modelcontextprotocol.io/specification); these schemas check only the envelope the
 * route needs to route a message, and the SDK checks the rest.
 */
import * as z from 'zod/mini';
import { MODULES, type ModuleName } from '../platform/permissions.ts';
import { named } from '../platform/schemas.ts';

const requestId = z.union([z.string(), z.int()]);

export const mcpMessage = named(
  'McpMessage',
  z
    .looseObject({
      jsonrpc: z.literal('2.0'),
      id: z.optional(requestId).register(z.globalRegistry, { description: 'Present on a request, absent on a notification' }),
      method: z.string().check(z.minLength(1), z.maxLength(200)),
      params: z.optional(z.record(z.string(), z.unknown())),
    })
    .register(z.globalRegistry, {
      description:
        'One JSON-RPC 2.0 request or notification of the Model Context Protocol, e.g. `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`',
    }),
);

/** A JSON-RPC error response: the MCP layer's refusal (an unknown method, bad params, an unsupported protocol revision…). */
export const mcpErrorResponse = named(
  'McpErrorResponse',
  z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.nullable(requestId),
    error: z.looseObject({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) }),
  }),
);

export const mcpResponse = named(
  'McpResponse',
  z.union([z.looseObject({ jsonrpc: z.literal('2.0'), id: requestId, result: z.record(z.string(), z.unknown()) }), mcpErrorResponse]),
);

/** A JSON-RPC message as the route validated it: enough to know whether it calls a tool. */
export type McpMessage = z.infer<typeof mcpMessage>;

/**
 * `?modules=ideas,knowledge-bank`: only those modules' tools. Every tool's definition is read into
 * the agent's context, so an agent that works on two areas is better served by their tools alone.
 */
export const mcpQuery = z.strictObject({
  modules: z.optional(
    z
      .pipe(
        z
          .string()
          .check(
            z.regex(
              new RegExp(`^(${MODULES.join('|')})(,(${MODULES.join('|')}))*$`),
              `must be module names separated by commas: ${MODULES.join(', ')}`,
            ),
          ),
        z.transform((list) => [...new Set(list.split(','))] as ModuleName[]),
      )
      .register(z.globalRegistry, {
        description: `Only the tools of these modules, comma-separated (${MODULES.join(', ')}); all of them when absent`,
      }),
  ),
});
export type McpQuery = z.output<typeof mcpQuery>;
