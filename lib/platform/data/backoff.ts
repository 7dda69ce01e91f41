/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter":
 * https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/): a random wait between
 * zero and the exponential ceiling spreads out callers that failed together, where a fixed wait would
 * bring them back together. Equal jitter keeps half of that spread and adds a floor, for a failure
 * that only time cures (a throttled partition).
 */

/** A wait for retry number `attempt` (1 for the first retry): uniform in [0, min(cap, base × 2^(attempt-1))). */
export function fullJitterDelayMs(attempt: number, baseMs: number, capMs: number): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** (attempt - 1));
}

/**
 * A wait for retry number `attempt` with equal jitter (the same post): half the exponential ceiling
 * fixed, half random. For a throttled request: its partition refills once a second, so retries whose
 * waits can add up to almost nothing would all land in the second that was already spent.
 */
export function equalJitterDelayMs(attempt: number, baseMs: number, capMs: number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
