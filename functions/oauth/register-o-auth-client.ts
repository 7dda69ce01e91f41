/** POST /oauth/register: RFC 7591 dynamic registration of a public client. */
import { registerOAuthClient } from '../../lib/mcp/oauth/commands/register-client.ts';
import { oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { registerOAuthClient as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ workspace, body, sourceIp }) => ({
  status: 201,
  body: await registerOAuthClient(workspace, body, sourceIp),
}));
