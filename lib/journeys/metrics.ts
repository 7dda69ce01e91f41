/**
 * Journey metrics: the value of each bound metric cell over a range of days, with its trend, from
 * the surveys' per-day score buckets (lib/surveys/summary/question-scores.ts), never the responses.
 * Pure: commands/get-journey-version-metrics.ts reads the buckets (one Query per distinct bound question).
 */
import { BadRequestError } from '../platform/errors.ts';
import { measureOf } from '../surveys/summary/measures.ts';
import type { DailyScores } from '../surveys/summary/question-scores.ts';
import { type JourneyContent, type MetricSource, splitCellKey } from './content.ts';
import { meetsTarget } from './map-svg/metric-badge.ts';
import { boundCellsOf, type ResolvedBinding } from './metric-bindings.ts';
import { MAX_METRIC_DAYS } from './schemas.ts';

export type MetricInterval = 'day' | 'week' | 'month';

export interface MetricRange {
  from: string;
  to: string;
}

interface SeriesPoint {
  start: string;
  value: number | null;
  n: number;
}

export interface JourneyMetric {
  cellKey: string;
  stageId: string;
  measure: MetricSource['measure'];
  value: number | null;
  n: number;
  marginOfError95: number | null;
  target: number | null;
  meetsTarget: boolean | null;
  series: SeriesPoint[];
}

const DAY_MS = 86_400_000;
/** What a range defaults to: the last 90 days, today included. */
const DEFAULT_DAYS = 90;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `from` and `to` as asked, else `to` today (UTC) and `from` 89 days before it. */
export function metricRange(query: { from?: string | undefined; to?: string | undefined }, now = Date.now()): MetricRange {
  const to = query.to ?? (query.from && query.from > isoDay(now) ? query.from : isoDay(now));
  const from = query.from ?? isoDay(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= MAX_METRIC_DAYS) {
    throw new BadRequestError('invalid_query', `\`from\` and \`to\` may span at most ${MAX_METRIC_DAYS} days`, [
      { path: 'query.from', message: `at most ${MAX_METRIC_DAYS} days before \`to\` (today when not given)` },
    ]);
  }
  return { from, to };
}

/** The first day of the interval holding `day`: itself, its ISO week's Monday, or the 1st of its month. */
function periodStart(day: string, interval: MetricInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 8)}01`;
  const ms = Date.parse(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return isoDay(ms - weekday * DAY_MS);
}

/** Every period start from `from`'s period to `to`'s, so a series has a point (maybe empty) for each. */
function periodStarts(range: MetricRange, interval: MetricInterval): string[] {
  const starts: string[] = [];
  for (let day = range.from; day <= range.to; day = isoDay(Date.parse(day) + DAY_MS)) {
    const start = periodStart(day, interval);
    if (starts.at(-1) !== start) starts.push(start);
  }
  return starts;
}

function addInto(total: Record<string, number>, counts: Record<string, number>) {
  for (const [value, count] of Object.entries(counts)) total[value] = (total[value] ?? 0) + count;
}

/** The one key of a bound question: its survey, question and pinned version. */
export const questionKey = (source: MetricSource) => `${source.surveyId}/${source.questionId}/${source.versionId ?? ''}`;

/** Pure: each bound cell's value over the whole range and per period, from the scores read. */
export function journeyMetricsOf(
  content: JourneyContent,
  bindings: readonly ResolvedBinding[],
  scores: ReadonlyMap<string, DailyScores[]>,
  range: MetricRange,
  interval: MetricInterval,
): JourneyMetric[] {
  const scales = new Map(bindings.map((binding) => [binding.cellKey, binding.scale]));
  const starts = periodStarts(range, interval);
  return boundCellsOf(content).map(({ cellKey, source }) => {
    const cell = content.cells[cellKey] as { target?: number; goodDirection?: 'up' | 'down' };
    const scale = scales.get(cellKey);
    const days = scores.get(questionKey(source)) ?? [];
    const total: Record<string, number> = {};
    const byPeriod = new Map<string, Record<string, number>>();
    for (const { day, counts } of days) {
      addInto(total, counts);
      const start = periodStart(day, interval);
      const period = byPeriod.get(start) ?? {};
      addInto(period, counts);
      byPeriod.set(start, period);
    }
    const overall = measureOf(source.measure, total, scale);
    const target = cell.target ?? null;
    return {
      cellKey,
      stageId: splitCellKey(cellKey).stageId,
      measure: source.measure,
      value: overall.value,
      n: overall.n,
      marginOfError95: overall.marginOfError95,
      target,
      meetsTarget: target === null ? null : meetsTarget({ value: overall.value, target, goodDirection: cell.goodDirection ?? 'up' }),
      series: starts.map((start) => {
        const period = measureOf(source.measure, byPeriod.get(start) ?? {}, scale);
        return { start, value: period.value, n: period.n };
      }),
    };
  });
}
