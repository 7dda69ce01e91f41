/** POST /journeys/validate: the diagnostics content would get, nothing stored. */
import { validateJourneyContent } from '../../lib/journeys/commands/validate-journey-content.ts';
import { validateJourneyContent as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ body, auth }) => {
  const diagnostics = await validateJourneyContent(auth.workspace.slug, body.content);
  return { body: { ok: true, diagnostics } };
});
