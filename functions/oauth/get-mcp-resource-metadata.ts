/** GET /.well-known/oauth-protected-resource/api/v1/mcp: the MCP server as an OAuth protected resource (RFC 9728). */
import { oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { resourceMetadata } from '../../lib/mcp/oauth/metadata.ts';
import { getMcpResourceMetadata as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ at }) => ({ body: resourceMetadata(at) }));
