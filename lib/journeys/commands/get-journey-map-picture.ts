/** A version drawn as a map (an SVG document), with the values of its bound metric cells over the range. */
import { renderJourneyMap } from '../map-svg/render.ts';
import { metricRange } from '../metrics.ts';
import { versionMetrics } from './get-journey-version-metrics.ts';

export async function getJourneyMapPicture(
  workspace: string,
  journeyId: string,
  versionId: string,
  query: { from?: string | undefined; to?: string | undefined; locale?: 'en' | 'ar' | undefined },
): Promise<string> {
  const range = metricRange(query);
  // One period for the whole range: the picture shows values, not series.
  const { version, metrics } = await versionMetrics(workspace, journeyId, versionId, range, { from: range.to, to: range.to }, 'day');
  return renderJourneyMap({
    content: version.content,
    label: version.label,
    publishedAt: version.publishedAt,
    locale: query.locale ?? 'en',
    readings: new Map(metrics.map((metric) => [metric.cellKey, { value: metric.value, n: metric.n }])),
    ...(metrics.length > 0 ? { range } : {}),
  });
}
