/** POST /oauth/revoke: RFC 7009 revocation of a derived key's tokens. */
import { revokeOAuthToken } from '../../lib/mcp/oauth/commands/token.ts';
import { oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { revokeOAuthToken as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ workspace, body }) => {
  await revokeOAuthToken(workspace, body.token);
  return { body: { ok: true } };
});
