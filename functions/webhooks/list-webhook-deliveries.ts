/** GET /webhooks/{id}/deliveries: what happened to each event sent to this webhook, newest first; by offset or by cursor. */
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import { listWebhookDeliveries } from '../../lib/webhooks/commands/list-webhook-deliveries.ts';
import { listWebhookDeliveries as route } from '../../lib/webhooks/routes.ts';

export const handler = listHandler(route).handler(async ({ auth, params, query, page: pageStart }) => {
  const page = await listWebhookDeliveries(auth.workspace.slug, params.id, query.status, (read) => paginate(pageStart, read));
  const { deliveries, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, deliveries, pagination: { limit: query.limit, offset, hasMore, nextCursor } } };
});
