/** GET /journeys/{journeyId}/versions/{versionId}/metrics: the version (one GetItem), then one Query per bound survey question, at once. */
import { getJourneyVersionMetrics } from '../../lib/journeys/commands/get-journey-version-metrics.ts';
import { getJourneyVersionMetrics as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const metrics = await getJourneyVersionMetrics(auth.workspace.slug, params.journeyId, params.versionId, query);
  return { body: { ok: true, ...metrics } };
});
