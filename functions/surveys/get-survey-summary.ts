/** GET /surveys/{id}/summary: the survey and the day buckets of the range, read together (one round trip), summed in memory. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getSurveySummary } from '../../lib/surveys/commands/get-survey-summary.ts';
import { getSurveySummary as route } from '../../lib/surveys/summary/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => ({
  body: { ok: true, summary: await getSurveySummary(auth.workspace.slug, params.id, query) },
}));
