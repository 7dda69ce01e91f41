/**
 * One attempt of one delivery, as a delivery-queue message asks (lib/webhooks/pipeline.ts):
 *   1. too early (a wait longer than SQS's 15-minute delay)? queue the message again: a hop;
 *   2. claim the attempt on the delivery record (lease) and read the webhook, concurrently;
 *      a duplicate or stale message finds the attempt made or taken and is dropped;
 *   3. webhook deleted or disabled? the delivery is cancelled;
 *   4. POST through the SSRF guard, signed with the webhook's current secret;
 *   5. 2xx: delivered. 410: failed, and the webhook is disabled with its other waiting retries
 *      cancelled (lib/webhooks/disabling.ts, as a disable request does). Otherwise the next attempt is
 *      queued (backoff with jitter, at least Retry-After) or, with no attempts left, the message
 *      goes to the dead-letter queue and the delivery is failed. The next message is queued
 *      before the result is written: a crash in between repeats the attempt, never loses it.
 */
import { config } from '../../platform/config.ts';
import { logger } from '../../platform/logger.ts';
import { countBusinessEvent } from '../../platform/metrics.ts';
import { postJson } from '../../platform/outbound/http-post.ts';
import { countersOfWork } from '../../platform/tenants/usage.ts';
import { recordUsage } from '../../platform/tenants/usage-buffer.ts';
import { type DeliveryMessage, sendDeadLetter, sendDeliveryMessage } from '../delivery-queue.ts';
import { disableAndCancelRetries } from '../disabling.ts';
import { DELIVERY_LEASE_SECONDS } from '../pipeline.ts';
import { nextRetryDelaySeconds, parseRetryAfter, parseRetryDelays } from '../retry-schedule.ts';
import { deliveryHeaders } from '../signing.ts';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  cancelDelivery,
  claimDeliveryAttempt,
  recordAttemptResult,
} from '../store/deliveries.ts';
import { findWebhookRecord } from '../store/webhooks.ts';

const queueUrl = config.webhookDeliveryQueueUrl();
const deadLetterQueueUrl = config.webhookDeadLetterQueueUrl();
const retryDelays = parseRetryDelays(config.webhookRetryDelays());

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
    await cancelDelivery(delivery, 'the webhook was disabled');
    return 'done';
  }

  const at = new Date().toISOString();
  const outcome = await postJson(webhook.url, delivery.payload, deliveryHeaders(webhook.secret, delivery.eventId, delivery.payload));
  // Each attempt made is one of the workspace's deliveries (its usage: docs/operating.md, "Tenants").
  recordUsage(message.workspace, Date.now(), countersOfWork({ deliveries: 1 }));
  const attempt: AttemptRecord = {
    attempt: delivery.attempt,
    at,
    outcome: outcome.ok ? 'delivered' : 'failed',
    responseStatus: outcome.status,
    durationMs: outcome.durationMs,
    error: outcome.error,
  };
  logger.info('Webhook delivery attempt', {
    ...ids(message),
    attempt: delivery.attempt,
    status: outcome.status,
    ok: outcome.ok,
    durationMs: outcome.durationMs,
  });

  if (outcome.ok) {
    if (await record(delivery, { attempt, outcome: 'delivered' })) countBusinessEvent('WebhookDeliveriesSucceeded');
    return 'done';
  }
  if (outcome.status === 410) {
    // As POST …/disable does: the webhook's other waiting retries are cancelled too, before this result is written.
    const disabled = await disableAndCancelRetries(message.workspace, message.webhookId, { by: 'receiver-gone', url: webhook.url });
    attempt.error = `the receiver answered 410 Gone${disabled ? '; the webhook was disabled' : ''}`;
    if (await record(delivery, { attempt, outcome: 'failed' })) countBusinessEvent('WebhookDeliveriesFailed');
    return 'done';
  }

  const delaySeconds = nextRetryDelaySeconds({
    attemptInRound: delivery.attempt - delivery.roundStart + 1,
    delays: retryDelays,
    retryAfterSeconds: parseRetryAfter(outcome.retryAfter),
  });
  if (delaySeconds === null) {
    await sendDeadLetter(deadLetterQueueUrl, {
      ...ids(message),
      attempt: delivery.attempt,
      reason: 'attempts_exhausted',
      failedAt: at,
      lastStatus: outcome.status,
      lastError: outcome.error,
    });
    if (await record(delivery, { attempt, outcome: 'failed' })) countBusinessEvent('WebhookDeliveriesFailed');
    return 'done';
  }
  const notBefore = Date.now() + Math.round(delaySeconds * 1000);
  await sendDeliveryMessage(queueUrl, { ...ids(message), attempt: delivery.attempt + 1, notBefore });
  await record(delivery, { attempt, outcome: 'retrying', nextAttemptAt: new Date(notBefore).toISOString() });
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
