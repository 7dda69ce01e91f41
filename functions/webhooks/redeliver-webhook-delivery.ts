/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: queue the event again for this webhook. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { redeliverWebhookDelivery } from '../../lib/webhooks/commands/redeliver-webhook-delivery.ts';
import { redeliverWebhookDelivery as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  await redeliverWebhookDelivery(auth.workspace.slug, params.id, params.deliveryId);
  return { body: { ok: true } };
});
