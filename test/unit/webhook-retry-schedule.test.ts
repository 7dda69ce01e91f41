/** The retry schedule: defaults, configuration, jitter and Retry-After. */
import { describe, expect, it } from 'vitest';
import {
  attemptsPerRound,
  DEFAULT_RETRY_DELAYS_SECONDS,
  nextRetryDelaySeconds,
  parseRetryAfter,
  parseRetryDelays,
} from '../../lib/webhooks/retry-schedule.ts';

describe('parseRetryDelays', () => {
  it('defaults to eleven attempts spread over about two days', () => {
    const delays = parseRetryDelays(undefined);
    expect(delays).toEqual([...DEFAULT_RETRY_DELAYS_SECONDS]);
    expect(attemptsPerRound(delays)).toBe(11);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(46);
    expect(total / 3600).toBeLessThan(49);
  });

  it('reads WEBHOOK_RETRY_DELAYS and refuses nonsense', () => {
    expect(parseRetryDelays('1, 2,30')).toEqual([1, 2, 30]);
    expect(parseRetryDelays('')).toEqual([...DEFAULT_RETRY_DELAYS_SECONDS]);
    expect(() => parseRetryDelays('1,two')).toThrow(/WEBHOOK_RETRY_DELAYS/);
    expect(() => parseRetryDelays('-1')).toThrow();
  });
});

describe('nextRetryDelaySeconds', () => {
  const delays = [5, 30, 120];

  it('follows the schedule with ±20 % jitter, then gives up', () => {
    expect(nextRetryDelaySeconds({ attemptInRound: 1, delays, retryAfterSeconds: null, random: () => 0 })).toBeCloseTo(4);
    expect(nextRetryDelaySeconds({ attemptInRound: 1, delays, retryAfterSeconds: null, random: () => 1 })).toBeCloseTo(6);
    expect(nextRetryDelaySeconds({ attemptInRound: 3, delays, retryAfterSeconds: null, random: () => 0.5 })).toBeCloseTo(120);
    expect(nextRetryDelaySeconds({ attemptInRound: 4, delays, retryAfterSeconds: null })).toBeNull();
  });

  it('waits at least as long as Retry-After asks', () => {
    expect(nextRetryDelaySeconds({ attemptInRound: 1, delays, retryAfterSeconds: 60, random: () => 0.5 })).toBe(60);
    expect(nextRetryDelaySeconds({ attemptInRound: 2, delays, retryAfterSeconds: 1, random: () => 0.5 })).toBeCloseTo(30);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, capped at a day', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('999999', now)).toBe(86_400);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
