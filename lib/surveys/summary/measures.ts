/**
 * Score measures over a distribution of numeric answers (value → how many gave it), pure and shared
 * by the summary endpoint and the journeys area's metrics (contract §2), so both state one number.
 *
 * Margins of error are at 95 % confidence (z = 1.96) with the normal approximation:
 * - NPS: each answer scores +1 (9–10), 0 (7–8) or −1 (0–6); the NPS is 100 × their mean, and its
 *   margin 100 × 1.96 × s/√n with s² = Σ(x − mean)² / (n − 1), the sample variance of those scores;
 * - shares (CSAT, top box): 100 × 1.96 × √(p(1 − p)/n);
 * - means (CES, mean): 1.96 × s/√n, s the sample standard deviation.
 * A margin needs n ≥ 2 (one answer has no spread); a value needs n ≥ 1.
 */

export type MetricMeasure = 'nps' | 'csat' | 'ces' | 'mean' | 'topBox';

export interface MeasureValue {
  value: number | null;
  n: number;
  marginOfError95: number | null;
}

const Z_95 = 1.96;
const CSAT_TOP = 5;

/** Rounded for display: scores and percentages to one decimal place, means to two. */
const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

interface Moments {
  n: number;
  mean: number;
  /** Sample variance (n − 1 in the denominator); 0 when n < 2. */
  variance: number;
}

/** Mean and sample variance of `score(value)` weighted by the counts, in one pass over the distribution. */
function momentsOf(counts: Record<string, number>, score: (value: number) => number): Moments {
  let n = 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (const [key, count] of Object.entries(counts)) {
    const value = Number(key);
    if (!Number.isFinite(value) || !(count > 0)) continue;
    const x = score(value);
    n += count;
    sum += x * count;
    sumOfSquares += x * x * count;
  }
  if (n === 0) return { n: 0, mean: 0, variance: 0 };
  const mean = sum / n;
  // Σ(x − mean)² = Σx² − n·mean²; clamped, since rounding can make it a hair below zero.
  const variance = n < 2 ? 0 : Math.max(0, (sumOfSquares - n * mean * mean) / (n - 1));
  return { n, mean, variance };
}

function meanMeasure(moments: Moments, scale: number, digits: number): MeasureValue {
  if (moments.n === 0) return { value: null, n: 0, marginOfError95: null };
  const margin = moments.n < 2 ? null : round(scale * Z_95 * Math.sqrt(moments.variance / moments.n), digits);
  return { value: round(scale * moments.mean, digits), n: moments.n, marginOfError95: margin };
}

function shareMeasure(counts: Record<string, number>, isHit: (value: number) => boolean): MeasureValue {
  const { n, mean: p } = momentsOf(counts, (value) => (isHit(value) ? 1 : 0));
  if (n === 0) return { value: null, n: 0, marginOfError95: null };
  const margin = n < 2 ? null : round(100 * Z_95 * Math.sqrt((p * (1 - p)) / n), 1);
  return { value: round(100 * p, 1), n, marginOfError95: margin };
}

/** NPS score of one answer: promoter +1, passive 0, detractor −1. */
export function npsScore(value: number): -1 | 0 | 1 {
  if (value >= 9) return 1;
  return value >= 7 ? 0 : -1;
}

/**
 * One measure of a distribution. `scale` is the question's range, needed by `topBox` for a rating
 * (its top value); CSAT's top box is 5 whatever `scale` says.
 */
export function measureOf(measure: MetricMeasure, counts: Record<string, number>, scale?: { min: number; max: number }): MeasureValue {
  switch (measure) {
    case 'nps':
      return meanMeasure(momentsOf(counts, npsScore), 100, 1);
    case 'csat':
      return shareMeasure(counts, (value) => value >= 4);
    case 'ces':
    case 'mean':
      return meanMeasure(
        momentsOf(counts, (value) => value),
        1,
        2,
      );
    case 'topBox': {
      const top = scale?.max ?? CSAT_TOP;
      return shareMeasure(counts, (value) => value >= top);
    }
  }
}

/**
 * The median of a distribution (the mean of the two middle answers when their number is even), or
 * null with no answers.
 */
export function medianOf(counts: Record<string, number>): number | null {
  const values = Object.entries(counts)
    .map(([key, count]) => [Number(key), count] as const)
    .filter(([value, count]) => Number.isFinite(value) && count > 0)
    .sort((a, b) => a[0] - b[0]);
  const n = values.reduce((total, [, count]) => total + count, 0);
  if (n === 0) return null;
  const valueAt = (rank: number) => {
    let seen = 0;
    for (const [value, count] of values) {
      seen += count;
      if (rank < seen) return value;
    }
    return values.at(-1)?.[0] ?? Number.NaN;
  };
  const lower = valueAt(Math.floor((n - 1) / 2));
  const upper = valueAt(Math.floor(n / 2));
  return (lower + upper) / 2;
}
