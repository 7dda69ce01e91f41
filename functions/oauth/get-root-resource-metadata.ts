/** GET /.well-known/oauth-protected-resource: the same document, root form. */
import { oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { resourceMetadata } from '../../lib/mcp/oauth/metadata.ts';
import { getRootResourceMetadata as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ at }) => ({ body: resourceMetadata(at) }));
