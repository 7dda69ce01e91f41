/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: queue the event again for this webhook. */
import { config } from '../../lib/platform/config.ts';
import { BadRequestError, NotFoundError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { requeueDelivery } from '../../lib/webhooks/deliveries.ts';
import { sendDeliveryMessage } from '../../lib/webhooks/delivery-queue.ts';
import { redeliverWebhookDelivery as route } from '../../lib/webhooks/routes.ts';
import { findWebhookRecord } from '../../lib/webhooks/store.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

export async function redeliverWebhookDelivery({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const webhook = await findWebhookRecord(slug, params.id);
  if (!webhook) throw new NotFoundError('not_found', 'No webhook with this id in this workspace');
  if (!webhook.enabled) throw new BadRequestError('webhook_disabled', 'Enable the webhook before redelivering to it');
  const attempt = await requeueDelivery(slug, params.id, params.deliveryId);
  // Queued after the record says so, so the message never finds a record that is not ready for it.
  // Should this send fail, the 502 invites a retry, and redelivering again is harmless.
  await sendDeliveryMessage(queueUrl, { workspace: slug, webhookId: params.id, eventId: params.deliveryId, attempt });
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(redeliverWebhookDelivery);
