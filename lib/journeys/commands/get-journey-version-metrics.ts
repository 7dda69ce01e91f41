/** A version's metric cells over a range: the version (one GetItem), then one Query per bound survey question, at once. */
import { type DailyScores, readDailyScores } from '../../surveys/summary/question-scores.ts';
import type { JourneyContent, MetricSource } from '../content.ts';
import { boundCellsOf } from '../metric-bindings.ts';
import { type JourneyMetric, journeyMetricsOf, type MetricInterval, type MetricRange, metricRange, questionKey } from '../metrics.ts';
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

/** The version and its metrics (the map picture asks too): scores read over `range`, their series cut into `interval`s over `periods`. */
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

/** The scores every bound question of the content had over the range: one readDailyScores (one Query) per distinct question, in parallel. */
async function readBoundScores(workspace: string, content: JourneyContent, range: MetricRange): Promise<Map<string, DailyScores[]>> {
  const distinct = new Map<string, MetricSource>();
  for (const { source } of boundCellsOf(content)) distinct.set(questionKey(source), source);
  const read = await Promise.all(
    [...distinct].map(async ([key, source]) => {
      const query = { surveyId: source.surveyId, questionId: source.questionId, from: range.from, to: range.to };
      return [key, await readDailyScores(workspace, source.versionId ? { ...query, versionId: source.versionId } : query)] as const;
    }),
  );
  return new Map(read);
}
