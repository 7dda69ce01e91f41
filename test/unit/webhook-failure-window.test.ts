/** The failure window (issue 40 item 3): when a failing receiver's webhook is disabled, and what it notes meanwhile. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  DEFAULT_DISABLE_AFTER_SECONDS,
  FAILURE_NOTE_INTERVAL_MS,
  type FailureState,
  goneReason,
  MAX_LAST_ERRORS,
  parseDisableAfterSeconds,
} from '../../lib/webhooks/failure-window.ts';

const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const healthy: FailureState = { failingSince: null, lastErrors: [], lastFailureAt: null };
const failed = (ms: number, status: number | null = 500, error: string | null = null) => ({ ok: false, at: iso(ms), status, error });
const ok = (ms: number) => ({ ok: true, at: iso(ms), status: 204, error: null });

/** Applies the verdicts as the store writes them. */
function apply(state: FailureState, verdict: ReturnType<typeof afterAttempt>, at: string): FailureState {
  if (verdict.kind === 'reset') return healthy;
  if (verdict.kind === 'note') return { failingSince: verdict.failingSince, lastErrors: verdict.lastErrors, lastFailureAt: at };
  return state;
}

describe('parseDisableAfterSeconds', () => {
  it('defaults to five days, as Svix, and refuses what is not a whole number of seconds', () => {
    expect(parseDisableAfterSeconds(undefined)).toBe(5 * 86_400);
    expect(DEFAULT_DISABLE_AFTER_SECONDS).toBe(432_000);
    expect(parseDisableAfterSeconds(' 6 ')).toBe(6);
    for (const bad of ['0', '1.5', '-3', 'five', '3s'])
      expect(() => parseDisableAfterSeconds(bad)).toThrow(/WEBHOOK_DISABLE_AFTER_SECONDS/);
  });
});

describe('afterAttempt', () => {
  const window = 60;

  it('starts the window at the first failure and disables at the first failure past it, naming the latest errors', () => {
    let state = healthy;
    const first = afterAttempt(state, failed(T0, 503), window);
    expect(first).toEqual({
      kind: 'note',
      failingSince: iso(T0),
      lastErrors: [{ at: iso(T0), status: 503, message: 'the receiver answered 503' }],
    });
    state = apply(state, first, iso(T0));
    state = apply(state, afterAttempt(state, failed(T0 + 30_000, null, 'timed out after 10 s'), window), iso(T0 + 30_000));
    expect(afterAttempt(state, failed(T0 + 60_000), window).kind).toBe('note'); // not longer than the window yet
    const last = afterAttempt(state, failed(T0 + 60_001, 502), window);
    expect(last).toEqual({
      kind: 'disable',
      streakSince: iso(T0),
      reason: {
        code: 'failing',
        since: iso(T0 + 60_001),
        lastErrors: [
          { at: iso(T0 + 60_001), status: 502, message: 'the receiver answered 502' },
          { at: iso(T0 + 30_000), status: null, message: 'timed out after 10 s' },
          { at: iso(T0), status: 503, message: 'the receiver answered 503' },
        ],
      },
    });
  });

  it('restarts the window after a 2xx, and writes nothing for a success after successes', () => {
    let state = apply(healthy, afterAttempt(healthy, failed(T0), window), iso(T0));
    expect(afterAttempt(state, ok(T0 + 59_000), window)).toEqual({ kind: 'reset' });
    state = healthy;
    expect(afterAttempt(state, ok(T0 + 59_000), window)).toEqual({ kind: 'none' });
    // The window counts from the first failure after the success, not the one before it.
    state = apply(state, afterAttempt(state, failed(T0 + 60_000), window), iso(T0 + 60_000));
    expect(afterAttempt(state, failed(T0 + 90_000), window).kind).toBe('note');
  });

  it('notes at most one failure a second on the webhook item, but never skips the one that disables', () => {
    const state = apply(healthy, afterAttempt(healthy, failed(T0), 1), iso(T0));
    expect(afterAttempt(state, failed(T0 + FAILURE_NOTE_INTERVAL_MS - 1), 3600)).toEqual({ kind: 'none' });
    expect(afterAttempt(state, failed(T0 + FAILURE_NOTE_INTERVAL_MS), 3600).kind).toBe('note');
    expect(afterAttempt(state, failed(T0 + 1001), 1).kind).toBe('disable');
  });

  it('disables exactly when a failure comes more than the window after the first of an unbroken streak', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 120_000 }), ok: fc.boolean() }), { minLength: 1, maxLength: 60 }),
        (windowSeconds, steps) => {
          let state = healthy;
          let at = T0;
          let streakStart: number | null = null;
          for (const step of steps) {
            at += step.gapMs;
            const verdict = afterAttempt(state, step.ok ? ok(at) : failed(at), windowSeconds);
            if (step.ok) {
              expect(verdict.kind).toBe(streakStart === null ? 'none' : 'reset');
              streakStart = null;
            } else if (streakStart !== null && at - streakStart > windowSeconds * 1000) {
              expect(verdict.kind).toBe('disable');
              return; // a disabled webhook makes no more attempts
            } else {
              expect(verdict.kind).not.toBe('disable');
              streakStart ??= at;
            }
            state = apply(state, verdict, iso(at));
            expect(state.lastErrors.length).toBeLessThanOrEqual(MAX_LAST_ERRORS);
            expect(state.failingSince).toBe(streakStart === null ? null : iso(streakStart));
          }
        },
      ),
    );
  });
});

describe('goneReason', () => {
  it('says gone, since the 410, with it first among the errors', () => {
    const state: FailureState = { failingSince: iso(T0), lastErrors: [{ at: iso(T0), status: 500, message: 'x' }], lastFailureAt: iso(T0) };
    expect(goneReason(state, failed(T0 + 5, 410))).toEqual({
      code: 'gone',
      since: iso(T0 + 5),
      lastErrors: [
        { at: iso(T0 + 5), status: 410, message: 'the receiver answered 410' },
        { at: iso(T0), status: 500, message: 'x' },
      ],
    });
  });
});
