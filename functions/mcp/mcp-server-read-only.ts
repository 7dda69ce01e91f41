/** POST /mcp/readonly: the remote MCP server offering its read tools only, whatever the key (lib/mcp/). */
import { routes } from '../../lib/manifest.ts';
import { mcpHandler } from '../../lib/mcp/handler.ts';
import { mcpServerReadOnly as route } from '../../lib/mcp/routes.ts';
import { type AgentTool, agentTools } from '../../lib/mcp/tools.ts';

// Built once per cold start, on the first request: the tools follow from the manifest alone.
let tools: AgentTool[] | undefined;

export const handler = mcpHandler(route, () => (tools ??= agentTools(routes).filter((tool) => tool.access === 'read')));
