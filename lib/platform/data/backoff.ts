/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter":
 * https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/): a random wait between
 * zero and the exponential ceiling spreads out callers that failed together, where a fixed or
 * equal-jitter wait would bring them back together.
 */

/** A wait for retry number `attempt` (1 for the first retry): uniform in [0, min(cap, base × 2^(attempt-1))). */
export function fullJitterDelayMs(attempt: number, baseMs: number, capMs: number): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** (attempt - 1));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
