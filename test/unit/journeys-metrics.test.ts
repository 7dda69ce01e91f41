import { describe, expect, it } from 'vitest';
import type { JourneyContent } from '../../lib/journeys/content.ts';
import { journeyMetricsOf, metricRange } from '../../lib/journeys/metrics.ts';
import type { DailyScores } from '../../lib/surveys/summary/question-scores.ts';

const SURVEY = '0190f4a2-7c1e-7000-8000-000000000001';
const content = (cells: JourneyContent['cells']): JourneyContent => ({
  schema: 1,
  stages: [{ id: 's', microJourneyPairs: [] }],
  rows: [{ id: 'm', type: 'metric' }],
  cells,
});

describe('journey metrics (pure)', () => {
  it('defaults to the 90 days ending today, and refuses more than 732 days', () => {
    const now = Date.parse('2026-11-24T15:00:00Z');
    expect(metricRange({}, now)).toEqual({ from: '2026-08-27', to: '2026-11-24' });
    expect(metricRange({ to: '2026-01-31' }, now)).toEqual({ from: '2025-11-03', to: '2026-01-31' });
    expect(metricRange({ from: '2026-11-01' }, now)).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(() => metricRange({ from: '2020-01-01' }, now)).toThrow(/732 days/);
  });

  it('groups days into ISO weeks and months, with a point for every period', () => {
    const cells = { 'm:s': { source: { surveyId: SURVEY, questionId: 'q', measure: 'mean' as const } } };
    const scores = new Map<string, DailyScores[]>([
      [
        `${SURVEY}/q/`,
        [
          { day: '2026-03-01', counts: { '4': 1 } },
          { day: '2026-03-02', counts: { '2': 1 } },
          { day: '2026-04-30', counts: { '6': 2 } },
        ],
      ],
    ]);
    const range = { from: '2026-03-01', to: '2026-04-30' };
    const [weekly] = journeyMetricsOf(content(cells), [], scores, range, 'week');
    expect(weekly?.series[0]).toEqual({ start: '2026-02-23', value: 4, n: 1 });
    expect(weekly?.series[1]).toEqual({ start: '2026-03-02', value: 2, n: 1 });
    expect(weekly?.series.at(-1)).toEqual({ start: '2026-04-27', value: 6, n: 2 });
    expect(weekly?.series).toHaveLength(10);
    const [monthly] = journeyMetricsOf(content(cells), [], scores, range, 'month');
    expect(monthly?.series).toEqual([
      { start: '2026-03-01', value: 3, n: 2 },
      { start: '2026-04-01', value: 6, n: 2 },
    ]);
    expect(monthly).toMatchObject({ value: 4.5, n: 4, target: null, meetsTarget: null });
  });

  it('judges a target by the good direction, and a top box by the scale resolved at save', () => {
    const cells = {
      'm:s': { source: { surveyId: SURVEY, questionId: 'effort', measure: 'ces' as const }, target: 3, goodDirection: 'down' as const },
      'm:t': { source: { surveyId: SURVEY, questionId: 'stars', measure: 'topBox' as const }, target: 20 },
    };
    const scores = new Map<string, DailyScores[]>([
      [`${SURVEY}/effort/`, [{ day: '2026-03-01', counts: { '2': 3, '4': 1 } }]],
      [`${SURVEY}/stars/`, [{ day: '2026-03-01', counts: { '5': 3, '7': 1 } }]],
    ]);
    const range = { from: '2026-03-01', to: '2026-03-01' };
    const [effort, stars] = journeyMetricsOf(content(cells), [{ cellKey: 'm:t', scale: { min: 1, max: 7 } }], scores, range, 'day');
    expect(effort).toMatchObject({ value: 2.5, meetsTarget: true });
    expect(stars).toMatchObject({ value: 25, n: 4, meetsTarget: true });
    const [, defaultScale] = journeyMetricsOf(content(cells), [], scores, range, 'day');
    expect(defaultScale?.value).toBe(100);
  });
});
