/** GET /webhooks/{id}/deliveries: one page of what happened to each event sent to this webhook (of one state, with `status`), newest first. */
import type { PageStart } from '../../platform/pagination.ts';
import type { DeliveryOutcome } from '../store/deliveries.ts';
import { listDeliveries } from '../store/delivery-list.ts';
import { getWebhook } from '../store/webhooks.ts';

type DeliveryPage = Awaited<ReturnType<typeof listDeliveries>>;

/**
 * Both reads at once: the webhook's existence (404) and the page, one round trip of latency. `paged`
 * reads the page from where the request's page starts (the handler's `paginate`).
 */
export async function listWebhookDeliveries<P>(
  workspace: string,
  webhookId: string,
  status: DeliveryOutcome | undefined,
  paged: (read: (start: PageStart) => Promise<DeliveryPage>) => Promise<P>,
): Promise<P> {
  const [, page] = await Promise.all([
    getWebhook(workspace, webhookId),
    paged((start) => listDeliveries(workspace, webhookId, start, status)),
  ]);
  return page;
}
