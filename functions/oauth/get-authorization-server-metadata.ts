/** GET /.well-known/oauth-authorization-server: the workspace host as an authorization server (RFC 8414). */
import { oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { authorizationServerMetadata } from '../../lib/mcp/oauth/metadata.ts';
import { getAuthorizationServerMetadata as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ at }) => ({ body: authorizationServerMetadata(at) }));
