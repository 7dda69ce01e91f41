/** POST /oauth/authorize: the consent form, the key then Allow or Deny. */
import { submitConsentForm } from '../../lib/mcp/oauth/commands/authorize.ts';
import { pageLanguageOf } from '../../lib/mcp/oauth/consent-page.ts';
import { authorizeResult, oauthHandler } from '../../lib/mcp/oauth/handler.ts';
import { submitOAuthConsent as route } from '../../lib/mcp/oauth/routes.ts';

export const handler = oauthHandler(route).handler(async ({ workspace, at, body, headers, sourceIp }) => {
  const language = pageLanguageOf(typeof body.lang === 'string' ? body.lang : undefined, headers['accept-language']);
  return authorizeResult(await submitConsentForm(workspace, at, body, language, sourceIp), 'POST');
});
