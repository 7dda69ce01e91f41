/** GET /webhooks/{id}/deliveries: what happened to each event sent to this webhook, newest first. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listDeliveries } from '../../lib/webhooks/deliveries.ts';
import { listWebhookDeliveries as route } from '../../lib/webhooks/routes.ts';
import { getWebhook } from '../../lib/webhooks/store.ts';

export async function listWebhookDeliveries({ auth, params, query }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  // Both reads at once: the webhook's existence (404) and the page, one round trip of latency.
  const [, page] = await Promise.all([getWebhook(auth.workspace.slug, params.id), listDeliveries(auth.workspace.slug, params.id, query)]);
  return {
    body: { ok: true, deliveries: page.deliveries, pagination: { limit: query.limit, offset: query.offset, hasMore: page.hasMore } },
  };
}

export const handler = apiHandler(route).handler(listWebhookDeliveries);
