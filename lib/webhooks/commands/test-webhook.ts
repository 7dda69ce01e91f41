/**
 * POST /webhooks/{id}/test: a `webhook.test` event for an enabled webhook, recorded as a delivery
 * and queued as every delivery is, so it is signed, retried, paced and logged as they are.
 */
import { config } from '../../platform/config.ts';
import { sendDeliveryMessage } from '../delivery-queue.ts';
import { webhookDisabled, webhookNotFound } from '../errors.ts';
import { eventBody, newEventId, TEST_EVENT_TYPE } from '../events.ts';
import { type Delivery, recordNewDelivery } from '../store/deliveries.ts';
import { findWebhookRecord } from '../store/webhooks.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

export async function testWebhook(workspace: string, webhookId: string): Promise<Delivery> {
  const webhook = await findWebhookRecord(workspace, webhookId);
  if (!webhook) throw webhookNotFound();
  if (!webhook.enabled) throw webhookDisabled('sending it a test event');
  const nowMs = Date.now();
  const event = { id: newEventId(nowMs), type: TEST_EVENT_TYPE, timestamp: new Date(nowMs).toISOString(), data: { webhookId, workspace } };
  const delivery = await recordNewDelivery(workspace, webhookId, event, eventBody(event), 'pending', nowMs);
  // Queued once its record exists, so the message never arrives before it.
  await sendDeliveryMessage(queueUrl, { workspace, webhookId, eventId: event.id, attempt: 1 });
  return delivery;
}
