/**
 * AWS-like DynamoDB latency in the sandbox, opt-in: `SANDBOX_DYNAMODB_LATENCY_MS=4` makes every
 * DynamoDB call the handlers send take about as long as a round trip to DynamoDB in a region, where
 * DynamoDB Local on the same machine answers in about a millisecond and so hides what the sequential
 * depth of an operation costs (X-Sandbox-DynamoDB-Depth). Each attempt (the SDK's retries included)
 * waits half its delay before the request goes out and half after the answer is back, so a write
 * lands mid-way, as it would. The delay is drawn from a log-normal distribution whose median is the
 * given figure (σ = 0.3: p95 ≈ 1.6×, p99 ≈ 2× the median, capped at 4×), the long-tailed shape of
 * network round trips; AWS states no figure for DynamoDB's latency beyond "single-digit
 * milliseconds" (https://aws.amazon.com/dynamodb/), so the median is the caller's to choose.
 */

const SIGMA = 0.3;
const CAP = 4;

/** `SANDBOX_DYNAMODB_LATENCY_MS`: the median delay of one call in ms, 0 (off) when unset. */
export function sandboxDynamoDbLatencyMs(): number {
  const raw = process.env.SANDBOX_DYNAMODB_LATENCY_MS;
  if (raw === undefined || raw === '') return 0;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1000) {
    throw new Error(`SANDBOX_DYNAMODB_LATENCY_MS must be a number of milliseconds from 0 to 1000, got "${raw}"`);
  }
  return value;
}

/** One round trip's delay around a median of `medianMs`; `random` is uniform in [0, 1). */
export function roundTripDelayMs(medianMs: number, random: () => number = Math.random): number {
  // Box–Muller: a standard normal from two uniforms (1 - u keeps the logarithm finite).
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(medianMs * CAP, medianMs * Math.exp(SIGMA * normal));
}

interface DelayableClient {
  middlewareStack: { add: (middleware: never, options: { step: 'deserialize'; name: string }) => void };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Delay every attempt of every call `client` sends by a round trip around `medianMs`. In the
 * deserialize step, inside the SDK's retry loop, so each attempt is a round trip of its own.
 */
export function delayDynamoDbCalls(client: DelayableClient, medianMs: number, random?: () => number): void {
  const delay = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
    const total = roundTripDelayMs(medianMs, random);
    await sleep(total / 2);
    try {
      return await next(args);
    } finally {
      await sleep(total / 2);
    }
  };
  client.middlewareStack.add(delay as never, { step: 'deserialize', name: 'sandboxDynamoDbLatency' });
}
