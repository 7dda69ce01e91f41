/**
 * The sandbox's view of round trips: the sequential depth behind X-Sandbox-DynamoDB-Depth
 * (local/instrumentation.ts), and the AWS-like latency SANDBOX_DYNAMODB_LATENCY_MS adds to every
 * call (local/dynamodb-latency.ts).
 */
import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { delayDynamoDbCalls, roundTripDelayMs, sandboxDynamoDbLatencyMs } from '../../local/dynamodb-latency.ts';
import { type DynamoDbCall, sequentialDepth } from '../../local/instrumentation.ts';

const call = (start: number, end?: number): DynamoDbCall => ({ command: 'GetItemCommand', start, end });

describe('sequentialDepth', () => {
  it('is 0 without calls and 1 for one call', () => {
    expect(sequentialDepth([])).toBe(0);
    expect(sequentialDepth([call(0, 5)])).toBe(1);
  });

  it('counts calls sent together once, and a call sent after an answer once more', () => {
    // The workspace and key; then the count beside the operation's read: two round trips.
    expect(sequentialDepth([call(0, 4), call(4, 9), call(4.1, 7)])).toBe(2);
    // The same, with a write waiting for the count: three.
    expect(sequentialDepth([call(0, 4), call(4, 9), call(4.1, 7), call(9, 12)])).toBe(3);
  });

  it("never chains an operation's read after the rate-limit count, which the code sends it beside", () => {
    const auth = call(0, 4);
    const count: DynamoDbCall = { ...call(4, 9), role: 'count' };
    // A busy core sent the read after the count's answer: still one round trip after authentication,
    // and the write that waits for both is the third.
    const lateRead: DynamoDbCall = { ...call(10, 12), role: 'read-beside-count' };
    expect(sequentialDepth([auth, count, lateRead, call(12.5, 15)])).toBe(3);
    expect(sequentialDepth([auth, count, { ...lateRead, role: undefined }, call(12.5, 15)])).toBe(4);
    // A write of the operation waits for the count: it chains after it.
    expect(sequentialDepth([auth, count, call(9.5, 11)])).toBe(3);
  });

  it('follows the longest chain, not the number of calls nor the order they are listed in', () => {
    expect(sequentialDepth([call(10, 12), call(0, 3), call(3, 5), call(5, 9), call(0, 20)])).toBe(4);
  });

  it('counts a call that starts before another ends as beside it, and one still in flight as ending never', () => {
    expect(sequentialDepth([call(0, 5), call(4.9, 8)])).toBe(1);
    expect(sequentialDepth([call(0), call(3, 4)])).toBe(1);
  });
});

describe('SANDBOX_DYNAMODB_LATENCY_MS', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.useRealTimers();
  });

  it('is off unless set, and refuses what is not a number of milliseconds', () => {
    vi.stubEnv('SANDBOX_DYNAMODB_LATENCY_MS', '');
    expect(sandboxDynamoDbLatencyMs()).toBe(0);
    vi.stubEnv('SANDBOX_DYNAMODB_LATENCY_MS', '4.5');
    expect(sandboxDynamoDbLatencyMs()).toBe(4.5);
    for (const wrong of ['4ms', '-1', '5000']) {
      vi.stubEnv('SANDBOX_DYNAMODB_LATENCY_MS', wrong);
      expect(() => sandboxDynamoDbLatencyMs()).toThrow(/SANDBOX_DYNAMODB_LATENCY_MS/);
    }
  });

  it('draws round trips around the median with a long tail, capped at four times the median', () => {
    // A fixed sequence of uniforms stands in for Math.random, so the figures are the same every run.
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const delays = Array.from({ length: 20_000 }, () => roundTripDelayMs(4, random)).sort((a, b) => a - b);
    const at = (p: number) => delays[Math.floor(delays.length * p)]!;
    expect(at(0.5)).toBeGreaterThan(3.8);
    expect(at(0.5)).toBeLessThan(4.2);
    expect(at(0.95)).toBeGreaterThan(6);
    expect(at(0.95)).toBeLessThan(7.2);
    expect(delays.at(-1)).toBeLessThanOrEqual(16);
    expect(delays[0]).toBeGreaterThan(0);
  });

  it('holds each call half its round trip before it is sent and half after its answer', async () => {
    const sentAt: number[] = [];
    // DynamoDB's answer to a GetItem that found nothing, from a handler that stands in for the network.
    const requestHandler = {
      handle: async () => {
        sentAt.push(Date.now());
        return { response: { statusCode: 200, headers: {}, body: Readable.from([Buffer.from('{}')]) } };
      },
    };
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, requestHandler }),
    );
    // One call first, on real timers and without the delay: the SDK loads parts of itself on its first
    // call, in real time, which fake milliseconds would not wait for on a loaded machine.
    await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
    sentAt.length = 0;
    vi.useFakeTimers();
    // The median delay, every time (a uniform of 0.25 makes cos(2π·u) = 0: no deviation).
    delayDynamoDbCalls(client, 8, () => 0.25);
    const started = Date.now();
    let answeredAt: number | undefined;
    const answered = client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })).then(() => {
      answeredAt = Date.now();
    });
    // One fake millisecond at a time (the SDK's own steps before the call take a few turns of the event loop).
    for (let ms = 0; ms < 50 && answeredAt === undefined; ms++) await vi.advanceTimersByTimeAsync(1);
    await answered;
    expect(sentAt).toHaveLength(1);
    expect(sentAt[0]! - started).toBeGreaterThanOrEqual(4);
    expect(answeredAt! - sentAt[0]!).toBe(4);
  });
});
