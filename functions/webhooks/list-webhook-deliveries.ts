/** GET /webhooks/{id}/deliveries: what happened to each event sent to this webhook, newest first; by offset or by cursor. */

import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listDeliveries } from '../../lib/webhooks/delivery-list.ts';
import { listWebhookDeliveries as route } from '../../lib/webhooks/routes.ts';
import { getWebhook } from '../../lib/webhooks/store.ts';

export async function listWebhookDeliveries({
  auth,
  params,
  query,
  page: pageStart,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  // Both reads at once: the webhook's existence (404) and the page, one round trip of latency.
  const [, page] = await Promise.all([getWebhook(slug, params.id), paginate(pageStart, (start) => listDeliveries(slug, params.id, start))]);
  const { deliveries, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, deliveries, pagination: { limit: query.limit, offset, hasMore, nextCursor } } };
}

export const handler = listHandler(route).handler(listWebhookDeliveries);
