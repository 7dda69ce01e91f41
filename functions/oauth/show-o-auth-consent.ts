/** GET /oauth/authorize: the consent page, first step. */
import { showConsentPage } from '../../lib/mcp/oauth/commands/authorize.ts';
import { pageLanguageOf } from '../../lib/mcp/oauth/consent-page.ts';
import { authorizeResult, oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { showOAuthConsent as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ workspace, at, query, headers }) =>
  authorizeResult(await showConsentPage(workspace, at, query, pageLanguageOf(query.lang, headers['accept-language'])), 'GET'),
);
