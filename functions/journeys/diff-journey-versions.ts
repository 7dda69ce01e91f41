/** GET /journeys/{journeyId}/versions/{versionId}/diff?against=…: what changed, as lists of ids. */
import { diffJourneyVersions } from '../../lib/journeys/commands/diff-journey-versions.ts';
import { diffJourneyVersions as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const diff = await diffJourneyVersions(auth.workspace.slug, params.journeyId, params.versionId, query.against);
  return { body: { ok: true, diff } };
});
