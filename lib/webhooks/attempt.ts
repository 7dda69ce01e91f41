/**
 * One attempt of one delivery to a webhook's receiver, and what it says about the webhook: the part
 * the delivery function (commands/deliver-webhook.ts) and a recovery (commands/run-webhook-recovery.ts)
 * share. The POST goes through the SSRF guard (lib/platform/outbound/), signed with the webhook's
 * current secret; then the failure window (failure-window.ts) decides whether the webhook's failure
 * state is written, and a 410 or a failure past the window disables it through the one path that
 * holds its waiting retries (disabling.ts).
 */
import { postJson } from '../platform/outbound/http-post.ts';
import { disableWebhookFor } from './disabling.ts';
import { afterAttempt, type FailureState, goneReason } from './failure-window.ts';
import type { WebhookRecord } from './record.ts';
import { deliveryHeaders } from './signing.ts';
import type { AttemptRecord } from './store/deliveries.ts';
import { writeFailureState } from './store/webhooks.ts';

export interface Attempted {
  /** The attempt as the delivery's log keeps it. */
  record: AttemptRecord;
  ok: boolean;
  status: number | null;
  retryAfter: string | null;
}

/** POST the delivery's payload to the webhook's URL, signed: never throws, every outcome is a value. */
export async function attemptDelivery(
  webhook: WebhookRecord,
  delivery: { eventId: string; payload: string; attempt: number },
): Promise<Attempted> {
  const at = new Date().toISOString();
  const outcome = await postJson(webhook.url, delivery.payload, deliveryHeaders(webhook.secret, delivery.eventId, delivery.payload));
  return {
    record: {
      attempt: delivery.attempt,
      at,
      outcome: outcome.ok ? 'delivered' : 'failed',
      responseStatus: outcome.status,
      durationMs: outcome.durationMs,
      error: outcome.error,
    },
    ok: outcome.ok,
    status: outcome.status,
    retryAfter: outcome.retryAfter,
  };
}

/** What the attempt did to the webhook: `disabled` when it disabled it (a 410, or failing past the window). */
export type WebhookAfterAttempt = { disabled: false; failures: FailureState } | { disabled: true; code: 'gone' | 'failing' };

/**
 * Write what the attempt says about the webhook, from its failure state as the caller knows it
 * (the webhook it read, kept up to date by the caller with the `failures` returned). A 410 disables
 * it while it still has the URL that answered; a failure past the window, while its streak is the
 * one read. Either way only if it is still enabled (otherwise someone else stopped it first).
 */
export async function noteAttempt(
  webhook: WebhookRecord,
  failures: FailureState,
  attempted: Attempted,
  windowSeconds: number,
): Promise<WebhookAfterAttempt> {
  const seen = { ok: attempted.ok, at: attempted.record.at, status: attempted.status, error: attempted.record.error };
  if (attempted.status === 410) {
    const disabled = await disableWebhookFor(webhook, { code: 'gone', reason: goneReason(failures, seen) });
    return disabled ? { disabled: true, code: 'gone' } : { disabled: false, failures };
  }
  const verdict = afterAttempt(failures, seen, windowSeconds);
  switch (verdict.kind) {
    case 'none':
      return { disabled: false, failures };
    case 'reset': {
      const healthy: FailureState = { failingSince: null, lastErrors: [], lastFailureAt: null };
      await writeFailureState(webhook.workspace, webhook.id, null);
      return { disabled: false, failures: healthy };
    }
    case 'note': {
      const noted: FailureState = { failingSince: verdict.failingSince, lastErrors: verdict.lastErrors, lastFailureAt: seen.at };
      await writeFailureState(webhook.workspace, webhook.id, noted);
      return { disabled: false, failures: noted };
    }
    case 'disable': {
      const disabled = await disableWebhookFor(webhook, { code: 'failing', reason: verdict.reason, streakSince: verdict.streakSince });
      return disabled ? { disabled: true, code: 'failing' } : { disabled: false, failures };
    }
  }
}
