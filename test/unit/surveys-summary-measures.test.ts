import { describe, expect, it } from 'vitest';
import { histogramBin, percentileOf } from '../../lib/surveys/summary/histogram.ts';
import { measureOf, medianOf } from '../../lib/surveys/summary/measures.ts';

describe('survey summary measures', () => {
  it('scores NPS as promoters minus detractors, with the margin from the +1/0/−1 variance', () => {
    // 5 promoters, 3 passives, 2 detractors: mean 0.3, sample variance (7 − 10·0.09)/9.
    const nps = measureOf('nps', { '10': 5, '8': 3, '3': 2 });
    expect(nps.value).toBe(30);
    expect(nps.n).toBe(10);
    expect(nps.marginOfError95).toBe(51);
  });

  it('scores everyone a promoter as 100 with no spread, and everyone a detractor as −100', () => {
    expect(measureOf('nps', { '9': 4, '10': 6 })).toEqual({ value: 100, n: 10, marginOfError95: 0 });
    expect(measureOf('nps', { '0': 2, '6': 1 }).value).toBe(-100);
  });

  it('scores CSAT as the share of 4 and 5, with a binomial margin', () => {
    expect(measureOf('csat', { '5': 3, '4': 1, '2': 1 })).toEqual({ value: 80, n: 5, marginOfError95: 35.1 });
  });

  it('scores CES and mean as the mean, with 1.96 standard errors', () => {
    expect(measureOf('ces', { '7': 1, '5': 1, '3': 1 })).toEqual({ value: 5, n: 3, marginOfError95: 2.26 });
    expect(measureOf('mean', { '2.5': 2 })).toEqual({ value: 2.5, n: 2, marginOfError95: 0 });
  });

  it('takes the top box at the scale top for a rating and at 5 for CSAT', () => {
    expect(measureOf('topBox', { '5': 2, '4': 2 }, { min: 1, max: 5 }).value).toBe(50);
    expect(measureOf('topBox', { '7': 1, '5': 3 }, { min: 1, max: 7 }).value).toBe(25);
    expect(measureOf('topBox', { '5': 1, '4': 3 }).value).toBe(25);
  });

  it('gives no value without answers and no margin with one answer', () => {
    expect(measureOf('nps', {})).toEqual({ value: null, n: 0, marginOfError95: null });
    expect(measureOf('csat', { '5': 1 })).toEqual({ value: 100, n: 1, marginOfError95: null });
    expect(measureOf('ces', { '3': 0 })).toEqual({ value: null, n: 0, marginOfError95: null });
  });

  it('takes the median of a distribution, between the middle two when even', () => {
    expect(medianOf({ '1': 1, '2': 1, '3': 1, '4': 1 })).toBe(2.5);
    expect(medianOf({ '9': 3, '1': 1 })).toBe(9);
    expect(medianOf({ '10': 1, '2': 2 })).toBe(2);
    expect(medianOf({})).toBeNull();
  });
});

describe('secondsToFinish histogram', () => {
  it('bins by the second below a minute and wider above', () => {
    expect(histogramBin(12.7)).toBe(12);
    expect(histogramBin(75)).toBe(70);
    expect(histogramBin(1_234)).toBe(1_200);
    expect(histogramBin(5_000)).toBe(4_800);
    expect(histogramBin(200_000)).toBe(86_400);
  });

  it('reads p50 and p90 as the middle of the nearest-rank bin', () => {
    const histogram: Record<string, number> = {};
    for (const seconds of [10, 20, 30, 40, 50, 65, 95, 125, 610, 4_000]) {
      const bin = String(histogramBin(seconds));
      histogram[bin] = (histogram[bin] ?? 0) + 1;
    }
    expect(percentileOf(histogram, 0.5)).toBe(50);
    expect(percentileOf(histogram, 0.9)).toBe(630);
    expect(percentileOf({}, 0.5)).toBeNull();
  });
});
