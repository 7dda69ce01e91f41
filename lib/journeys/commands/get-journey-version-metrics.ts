/** A version's metric cells over a range: the version (one GetItem), then one Query per bound survey question, at once. */
import { type JourneyMetric, journeyMetricsOf, type MetricInterval, type MetricRange, metricRange, readBoundScores } from '../metrics.ts';
import type { JourneyVersion } from '../schemas.ts';
import { getVersionWithBindings } from '../store/versions.ts';

export async function getJourneyVersionMetrics(
  workspace: string,
  journeyId: string,
  versionId: string,
  query: { from?: string | undefined; to?: string | undefined; interval?: MetricInterval | undefined },
) {
  const range = metricRange(query);
  const interval = query.interval ?? 'week';
  const { metrics } = await versionMetrics(workspace, journeyId, versionId, range, range, interval);
  return { ...range, interval, metrics };
}

/** The version and its metrics: scores read over `range`, their series cut into `interval`s over `periods`. */
export async function versionMetrics(
  workspace: string,
  journeyId: string,
  versionId: string,
  range: MetricRange,
  periods: MetricRange,
  interval: MetricInterval,
): Promise<{ version: JourneyVersion; metrics: JourneyMetric[] }> {
  const { version, bindings } = await getVersionWithBindings(workspace, journeyId, versionId);
  const scores = await readBoundScores(workspace, version.content, range);
  return { version, metrics: journeyMetricsOf(version.content, bindings, scores, periods, interval) };
}
