/** GET /journeys/{journeyId}/versions/{versionId}/map.svg: the version (one GetItem), its bound metrics (one Query per bound question), drawn. */

import { renderJourneyMap } from '../../lib/journeys/map-svg/render.ts';
import { journeyMetricsOf, metricRange, readBoundScores } from '../../lib/journeys/metrics.ts';
import { getJourneyMapPicture as route } from '../../lib/journeys/routes.ts';
import { getVersionWithBindings } from '../../lib/journeys/store/versions.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getJourneyMapPicture({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const range = metricRange(query);
  const { version, bindings } = await getVersionWithBindings(auth.workspace.slug, params.journeyId, params.versionId);
  const scores = await readBoundScores(auth.workspace.slug, version.content, range);
  // One period for the whole range: the picture shows values, not series.
  const metrics = journeyMetricsOf(version.content, bindings, scores, { from: range.to, to: range.to }, 'day');
  const svg = renderJourneyMap({
    content: version.content,
    label: version.label,
    publishedAt: version.publishedAt,
    locale: query.locale ?? 'en',
    readings: new Map(metrics.map((metric) => [metric.cellKey, { value: metric.value, n: metric.n }])),
    ...(metrics.length > 0 ? { range } : {}),
  });
  return { body: svg, headers: { 'Cache-Control': 'private, no-cache' } };
}

export const handler = apiHandler(route).handler(getJourneyMapPicture);
