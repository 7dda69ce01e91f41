/** GET /journeys/{journeyId}/versions/{versionId}/metrics: the version (one GetItem), then one Query per bound survey question, at once. */

import { journeyMetricsOf, metricRange, readBoundScores } from '../../lib/journeys/metrics.ts';
import { getJourneyVersionMetrics as route } from '../../lib/journeys/routes.ts';
import { getVersionWithBindings } from '../../lib/journeys/store/versions.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getJourneyVersionMetrics({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const range = metricRange(query);
  const interval = query.interval ?? 'week';
  const { version, bindings } = await getVersionWithBindings(auth.workspace.slug, params.journeyId, params.versionId);
  const scores = await readBoundScores(auth.workspace.slug, version.content, range);
  const metrics = journeyMetricsOf(version.content, bindings, scores, range, interval);
  return { body: { ok: true, ...range, interval, metrics } };
}

export const handler = apiHandler(route).handler(getJourneyVersionMetrics);
