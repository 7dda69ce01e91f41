/**
 * secondsToFinish as a histogram with bins of bounded relative width, so p50 and p90 come from
 * counters: 1 s bins below a minute, 10 s below 10 minutes, 1 min below an hour, 10 min below a
 * day, and one bin for a day or more. A percentile is reported as the middle of its bin, at most half
 * a bin (≤ 5 minutes past the first hour, ≤ 8 % of the value from 1 min on) from the exact value.
 */
const BANDS = [
  { below: 60, width: 1 },
  { below: 600, width: 10 },
  { below: 3_600, width: 60 },
  { below: 86_400, width: 600 },
] as const;
const LAST_BIN = 86_400;

/** The bin's lower bound, in whole seconds. */
export function histogramBin(seconds: number): number {
  for (const band of BANDS) {
    if (seconds < band.below) return Math.floor(seconds / band.width) * band.width;
  }
  return LAST_BIN;
}

function binWidth(bin: number): number {
  for (const band of BANDS) if (bin < band.below) return band.width;
  return 0;
}

/** The q-quantile (0 < q ≤ 1) of a histogram (bin → count) as its bin's middle; null when empty. */
export function percentileOf(histogram: Record<string, number>, q: number): number | null {
  const bins = Object.entries(histogram)
    .map(([bin, count]) => [Number(bin), count] as const)
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0]);
  const n = bins.reduce((total, [, count]) => total + count, 0);
  if (n === 0) return null;
  // The nearest-rank definition: the smallest value with at least q × n answers at or below it.
  const rank = Math.max(1, Math.ceil(q * n));
  let seen = 0;
  for (const [bin, count] of bins) {
    seen += count;
    if (seen >= rank) {
      const width = binWidth(bin);
      return width <= 1 ? bin : bin + width / 2;
    }
  }
  return null;
}
