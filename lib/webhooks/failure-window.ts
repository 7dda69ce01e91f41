/**
 * When a failing receiver gets its webhook disabled, and what the webhook says about it. Pure: the
 * delivery function and a recovery hand it the webhook's failure state as they read it and the
 * attempt they just made, and write what it decides (store/webhooks.ts).
 *
 * The failure window is Svix's rule: an endpoint whose every attempt has failed for longer than the
 * window (5 days by default) is disabled. `failingSince` is the time of the first failed attempt
 * after the last 2xx; a 2xx removes it, so any success restarts the window. A receiver's 410 Gone
 * disables at once (`gone`), whatever the window.
 *
 * The failure state lives on the webhook item, which every attempt of every delivery of the webhook
 * reads: writing it on every failed attempt would make that item as hot as the receiver is busy. So a
 * failure is noted at most once a second (`lastFailureAt`), except the first after a success and the
 * one that crosses the window: `lastErrors` keeps the latest noted ones, which is what a person needs
 * to see why.
 */
import type { DisabledReason, FailureNote } from './disabled-reason.ts';

/** Svix's window: an endpoint failing for 5 days is disabled. */
export const DEFAULT_DISABLE_AFTER_SECONDS = 5 * 86_400;
/** Failures kept in `lastErrors` (newest first). */
export const MAX_LAST_ERRORS = 3;
/** A failure is noted on the webhook item at most this often (the first of a streak and the disabling one always). */
export const FAILURE_NOTE_INTERVAL_MS = 1000;

/** What the webhook item holds about the current streak of failures. */
export interface FailureState {
  /** The first failed attempt since the last 2xx (ISO time), or null when the last attempt succeeded. */
  failingSince: string | null;
  /** Newest first, at most MAX_LAST_ERRORS. */
  lastErrors: FailureNote[];
  /** When a failure was last noted (ISO time). */
  lastFailureAt: string | null;
}

/** One attempt's result, as the failure window sees it. */
export interface AttemptSeen {
  ok: boolean;
  /** When the attempt was made (ISO time). */
  at: string;
  status: number | null;
  error: string | null;
}

export type FailureVerdict =
  /** Nothing to write: a success after successes, or a failure noted less than a second ago. */
  | { kind: 'none' }
  /** A 2xx after failures: the window starts again. */
  | { kind: 'reset' }
  /** Note the failure: `failingSince` stays as it is, or starts now. */
  | { kind: 'note'; failingSince: string; lastErrors: FailureNote[] }
  /** Every attempt failed for longer than the window: disable, provided the streak is still the one read. */
  | { kind: 'disable'; reason: DisabledReason; streakSince: string };

/** Parses WEBHOOK_DISABLE_AFTER_SECONDS: a whole number of seconds, at least 1; the 5-day default when unset. */
export function parseDisableAfterSeconds(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_DISABLE_AFTER_SECONDS;
  if (!/^\d{1,10}$/.test(raw.trim()) || Number(raw) < 1) {
    throw new Error(`WEBHOOK_DISABLE_AFTER_SECONDS must be a whole number of seconds, at least 1, got "${raw}"`);
  }
  return Number(raw);
}

/** What a failed attempt says, in a person's words: the receiver's status, or what went wrong on the way. */
function failureNote(attempt: AttemptSeen): FailureNote {
  return {
    at: attempt.at,
    status: attempt.status,
    message: attempt.error ?? (attempt.status === null ? 'no answer' : `the receiver answered ${attempt.status}`),
  };
}

/** What to write on the webhook after an attempt (not a 410, which disables at once: `gone`). */
export function afterAttempt(state: FailureState, attempt: AttemptSeen, windowSeconds: number): FailureVerdict {
  if (attempt.ok) return state.failingSince === null ? { kind: 'none' } : { kind: 'reset' };
  const lastErrors = [failureNote(attempt), ...state.lastErrors].slice(0, MAX_LAST_ERRORS);
  const at = Date.parse(attempt.at);
  if (state.failingSince === null) return { kind: 'note', failingSince: attempt.at, lastErrors };
  if (at - Date.parse(state.failingSince) > windowSeconds * 1000) {
    return { kind: 'disable', reason: { code: 'failing', since: attempt.at, lastErrors }, streakSince: state.failingSince };
  }
  if (state.lastFailureAt !== null && at - Date.parse(state.lastFailureAt) < FAILURE_NOTE_INTERVAL_MS) return { kind: 'none' };
  return { kind: 'note', failingSince: state.failingSince, lastErrors };
}

/** The reason a receiver's 410 Gone gives, with the failures noted before it. */
export function goneReason(state: FailureState, attempt: AttemptSeen): DisabledReason {
  return { code: 'gone', since: attempt.at, lastErrors: [failureNote(attempt), ...state.lastErrors].slice(0, MAX_LAST_ERRORS) };
}
