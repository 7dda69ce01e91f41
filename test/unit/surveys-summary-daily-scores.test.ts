import { describe, expect, it } from 'vitest';
import { dailyScoresOf } from '../../lib/surveys/summary/question-scores.ts';
import type { DayBucket } from '../../lib/surveys/summary/store/buckets.ts';

const rating = (max: number) => ({ type: 'rating' as const, position: 0, numeric: true, scale: { min: 1, max } });
const bucket = (day: string, versionId: string, max: number, counts: Record<string, number>): DayBucket => ({
  day,
  versionId,
  catalog: { stars: rating(max), note: { type: 'openText', position: 1, numeric: false } },
  counts,
});

describe('readDailyScores over day buckets', () => {
  const buckets = [
    bucket('2026-11-01', 'v1', 5, { 'q|stars|v|5': 2, 'q|stars|v|4': 1, 'q|stars|shown': 3, 'r|started': 3 }),
    bucket('2026-11-01', 'v2', 5, { 'q|stars|v|3': 1 }),
    bucket('2026-11-02', 'v2', 5, { 'q|stars|v|5': 1 }),
    // An older version on another scale: its numbers mean something else.
    bucket('2026-11-02', 'v0-old-scale', 7, { 'q|stars|v|7': 4 }),
  ];

  it('adds up every version that kept the type and scale, per day, leaving out the others', () => {
    expect(dailyScoresOf(buckets, 'stars')).toEqual([
      { day: '2026-11-01', counts: { '5': 2, '4': 1, '3': 1 } },
      { day: '2026-11-02', counts: { '5': 1 } },
    ]);
  });

  it('reads one version when asked, and nothing for a question without numbers', () => {
    expect(dailyScoresOf(buckets, 'stars', 'v1')).toEqual([{ day: '2026-11-01', counts: { '5': 2, '4': 1 } }]);
    expect(dailyScoresOf(buckets, 'stars', 'v0-old-scale')).toEqual([{ day: '2026-11-02', counts: { '7': 4 } }]);
    expect(dailyScoresOf(buckets, 'note')).toEqual([]);
    expect(dailyScoresOf(buckets, 'unknown')).toEqual([]);
  });
});
