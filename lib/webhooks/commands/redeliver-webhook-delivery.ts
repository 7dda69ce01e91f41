/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: queue the event again for this enabled webhook. */
import { config } from '../../platform/config.ts';
import { sendDeliveryMessage } from '../delivery-queue.ts';
import { webhookDisabled, webhookNotFound } from '../errors.ts';
import { requeueDelivery } from '../store/deliveries.ts';
import { findWebhookRecord } from '../store/webhooks.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

export async function redeliverWebhookDelivery(workspace: string, webhookId: string, eventId: string): Promise<void> {
  const webhook = await findWebhookRecord(workspace, webhookId);
  if (!webhook) throw webhookNotFound();
  if (!webhook.enabled) throw webhookDisabled('redelivering to it');
  const attempt = await requeueDelivery(workspace, webhookId, eventId);
  // Queued after the record says so, so the message never finds a record that is not ready for it.
  // Should this send fail, the 502 invites a retry, and redelivering again is harmless.
  await sendDeliveryMessage(queueUrl, { workspace, webhookId, eventId, attempt });
}
