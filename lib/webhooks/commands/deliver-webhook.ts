/**
 * One attempt of one delivery, as a delivery-queue message asks (lib/webhooks/pipeline.ts):
 *   1. too early (a wait longer than SQS's 15-minute delay)? queue the message again: a hop;
 *   2. claim the attempt on the delivery record (lease) and read the webhook, concurrently;
 *      a duplicate or stale message finds the attempt made or taken and is dropped;
 *   3. webhook deleted? the delivery is cancelled; disabled? it is held, for a recovery;
 *   4. over the webhook's `maxDeliveriesPerSecond`? the message comes back when the budget allows
 *      (queued first), and the delivery reads `throttled`: no attempt is counted;
 *   5. POST through the SSRF guard, signed with the webhook's current secret (attempt.ts), and the
 *      webhook's failure window noted: a 410, or every attempt failing for longer than the window,
 *      disables it (disabling.ts), holding its other waiting retries;
 *   6. 2xx: delivered. 410: failed. Failing past the window: held (its webhook is disabled now).
 *      Otherwise the next attempt is queued (backoff with jitter, at least Retry-After) or, with no
 *      attempts left, the message goes to the dead-letter queue and the delivery is failed. The next
 *      message is queued before the result is written: a crash in between repeats the attempt, never
 *      loses it.
 */
import { config } from '../../platform/config.ts';
import { logger } from '../../platform/logger.ts';
import { countBusinessEvent } from '../../platform/metrics.ts';
import { attemptDelivery, noteAttempt } from '../attempt.ts';
import { type DeliveryMessage, sendDeadLetter, sendDeliveryMessage } from '../delivery-queue.ts';
import { parseDisableAfterSeconds } from '../failure-window.ts';
import { DELIVERY_LEASE_SECONDS } from '../pipeline.ts';
import { nextRetryDelaySeconds, parseRetryAfter, parseRetryDelays } from '../retry-schedule.ts';
import {
  type ClaimedDelivery,
  cancelDelivery,
  claimDeliveryAttempt,
  holdDelivery,
  recordAttemptResult,
  throttleDelivery,
} from '../store/deliveries.ts';
import { takeRateSlot } from '../store/rate-slots.ts';
import { findWebhookRecord } from '../store/webhooks.ts';

const queueUrl = config.webhookDeliveryQueueUrl();
const deadLetterQueueUrl = config.webhookDeadLetterQueueUrl();
const retryDelays = parseRetryDelays(config.webhookRetryDelays());
const windowSeconds = parseDisableAfterSeconds(config.webhookDisableAfterSeconds());

/** SQS rounds delays to whole seconds; a message this close to its time is delivered, not hopped. */
const HOP_TOLERANCE_MS = 1000;

/** `not-ready`: the delivery record is not ready for this attempt yet; the message must come back soon. */
export type DeliveryVerdict = 'done' | 'not-ready';

export async function deliverWebhook(message: DeliveryMessage): Promise<DeliveryVerdict> {
  const now = Date.now();
  if (message.notBefore && message.notBefore - now > HOP_TOLERANCE_MS) {
    await sendDeliveryMessage(queueUrl, message);
    return 'done';
  }

  const [claim, webhook] = await Promise.all([
    claimDeliveryAttempt(message, DELIVERY_LEASE_SECONDS, now),
    findWebhookRecord(message.workspace, message.webhookId),
  ]);
  if ('rejected' in claim) {
    logger.debug('Delivery message dropped or deferred', { ...ids(message), reason: claim.rejected });
    return claim.rejected === 'early' ? 'not-ready' : 'done';
  }
  const delivery = claim.claimed;
  if (!webhook) {
    await cancelDelivery(delivery, 'the webhook was deleted');
    return 'done';
  }
  if (!webhook.enabled) {
    await holdDelivery(delivery);
    return 'done';
  }
  if (webhook.maxDeliveriesPerSecond !== null) {
    const slot = await takeRateSlot(message.workspace, message.webhookId, webhook.maxDeliveriesPerSecond, now);
    if (!slot.go) {
      // The same attempt, when its turn comes: queued before the record says so, as every next attempt.
      await sendDeliveryMessage(queueUrl, { ...ids(message), attempt: delivery.attempt, notBefore: slot.retryAtMs });
      await throttleDelivery(delivery, new Date(slot.retryAtMs).toISOString());
      return 'done';
    }
  }

  const attempted = await attemptDelivery(webhook, delivery);
  logger.info('Webhook delivery attempt', {
    ...ids(message),
    attempt: delivery.attempt,
    status: attempted.status,
    ok: attempted.ok,
    durationMs: attempted.record.durationMs,
  });
  const failures = { failingSince: webhook.failingSince, lastErrors: webhook.lastErrors, lastFailureAt: webhook.lastFailureAt };
  // A 410 or a failure past the window disables the webhook (holding its other waiting retries) before this result is written.
  const after = await noteAttempt(webhook, failures, attempted, windowSeconds);

  if (attempted.ok) {
    if (await record(delivery, { attempt: attempted.record, outcome: 'delivered' })) countBusinessEvent('WebhookDeliveriesSucceeded');
    return 'done';
  }
  if (attempted.status === 410) {
    attempted.record.error = `the receiver answered 410 Gone${after.disabled ? '; the webhook was disabled' : ''}`;
    if (await record(delivery, { attempt: attempted.record, outcome: 'failed' })) countBusinessEvent('WebhookDeliveriesFailed');
    return 'done';
  }
  if (after.disabled) {
    // Its receiver has failed for longer than the window: held with the others, for a recovery.
    await record(delivery, { attempt: attempted.record, outcome: 'held' });
    return 'done';
  }

  const delaySeconds = nextRetryDelaySeconds({
    attemptInRound: delivery.attempt - delivery.roundStart + 1,
    delays: retryDelays,
    retryAfterSeconds: parseRetryAfter(attempted.retryAfter),
  });
  if (delaySeconds === null) {
    await sendDeadLetter(deadLetterQueueUrl, {
      ...ids(message),
      attempt: delivery.attempt,
      reason: 'attempts_exhausted',
      failedAt: attempted.record.at,
      lastStatus: attempted.status,
      lastError: attempted.record.error,
    });
    if (await record(delivery, { attempt: attempted.record, outcome: 'failed' })) countBusinessEvent('WebhookDeliveriesFailed');
    return 'done';
  }
  const notBefore = Date.now() + Math.round(delaySeconds * 1000);
  await sendDeliveryMessage(queueUrl, { ...ids(message), attempt: delivery.attempt + 1, notBefore });
  await record(delivery, { attempt: attempted.record, outcome: 'retrying', nextAttemptAt: new Date(notBefore).toISOString() });
  return 'done';
}

/** Whether this copy's result was written (and so is the one to count). */
async function record(delivery: ClaimedDelivery, result: Parameters<typeof recordAttemptResult>[1]): Promise<boolean> {
  // Only false if the lease ran out and another copy took over: that copy's result stands.
  if (await recordAttemptResult(delivery, result)) return true;
  logger.warn('Delivery lease lost before the result was written', { eventId: delivery.eventId, webhookId: delivery.webhookId });
  return false;
}

const ids = (m: DeliveryMessage) => ({ workspace: m.workspace, webhookId: m.webhookId, eventId: m.eventId });
