/** POST /oauth/token: tokens for an authorization code or a refresh token. */
import { exchangeOAuthToken } from '../../lib/mcp/oauth/commands/token.ts';
import { oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { exchangeOAuthToken as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ workspace, at, body }) => ({
  body: await exchangeOAuthToken(workspace, at, body),
  headers: { 'Cache-Control': 'no-store' },
}));
