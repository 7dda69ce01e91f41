/** GET /webhooks/{id}/deliveries: what happened to each event sent to this webhook, newest first; by offset or by cursor. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import { listWebhookDeliveries } from '../../lib/webhooks/commands/list-webhook-deliveries.ts';
import { listWebhookDeliveries as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params, query }) => {
  const workspace = auth.workspace.slug;
  // The cursor is bound to this webhook's list: one issued for another webhook is refused.
  const list = `${route.operationId}:${params.id}`;
  const page = await listWebhookDeliveries(workspace, params.id, (read) => paginate({ workspace, list, ...query }, read));
  const { deliveries, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, deliveries, pagination: { limit: query.limit, offset, hasMore, nextCursor } } };
});
