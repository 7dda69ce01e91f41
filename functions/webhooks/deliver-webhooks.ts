/**
 * The delivery-queue consumer: each message asks for one attempt of one delivery. The messages
 * of a batch are delivered concurrently; the function reports each failed message as a batch
 * item failure, so SQS keeps it (and after five receives parks it in the dead-letter queue),
 * while every other message of the batch is deleted. No error is swallowed.
 *
 * One attempt:
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
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { config } from '../../lib/platform/config.ts';
import { logger } from '../../lib/platform/logger.ts';
import { countBusinessEvent } from '../../lib/platform/metrics.ts';
import { postJson } from '../../lib/platform/outbound/http-post.ts';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  cancelDelivery,
  claimDeliveryAttempt,
  recordAttemptResult,
} from '../../lib/webhooks/deliveries.ts';
import {
  type DeliveryMessage,
  deliveryMessage,
  returnMessageAfter,
  sendDeadLetter,
  sendDeliveryMessage,
} from '../../lib/webhooks/delivery-queue.ts';
import { disableAndCancelRetries } from '../../lib/webhooks/disabling.ts';
import { DELIVERY_LEASE_SECONDS } from '../../lib/webhooks/pipeline.ts';
import { nextRetryDelaySeconds, parseRetryAfter, parseRetryDelays } from '../../lib/webhooks/retry-schedule.ts';
import { deliveryHeaders } from '../../lib/webhooks/signing.ts';
import { findWebhookRecord } from '../../lib/webhooks/store.ts';

const queueUrl = config.webhookDeliveryQueueUrl();
const deadLetterQueueUrl = config.webhookDeadLetterQueueUrl();
const retryDelays = parseRetryDelays(config.webhookRetryDelays());

/** A message that arrives before its record is ready comes back this soon rather than after the visibility timeout. */
const NOT_READY_RETRY_SECONDS = 10;
/** SQS rounds delays to whole seconds; a message this close to its time is delivered, not hopped. */
const HOP_TOLERANCE_MS = 1000;

type Verdict = 'done' | 'not-ready';

async function attemptDelivery(message: DeliveryMessage): Promise<Verdict> {
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

async function handleRecord(record: SQSRecord): Promise<void> {
  const parsed = deliveryMessage.safeParse(JSON.parse(record.body));
  if (!parsed.success) throw new Error(`Malformed delivery message ${record.messageId}`);
  if ((await attemptDelivery(parsed.data)) === 'not-ready') {
    await returnMessageAfter(queueUrl, record.receiptHandle, NOT_READY_RETRY_SECONDS);
    throw new NotReadyError();
  }
}

class NotReadyError extends Error {}

async function deliverWebhooks(event: SQSEvent): Promise<SQSBatchResponse> {
  const results = await Promise.allSettled(event.Records.map(handleRecord));
  const failures = event.Records.filter((record, i) => {
    const result = results[i]!;
    if (result.status === 'fulfilled') return false;
    if (!(result.reason instanceof NotReadyError)) {
      logger.error('Webhook delivery message failed; SQS will retry it', { error: result.reason as Error, messageId: record.messageId });
    }
    return true;
  });
  return { batchItemFailures: failures.map((record) => ({ itemIdentifier: record.messageId })) };
}

export const handler = deliverWebhooks;
