/** GET /webhooks: every webhook of the workspace, without secrets. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { listWebhooks } from '../../lib/webhooks/commands/list-webhooks.ts';
import { listWebhooks as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => {
  const webhooks = await listWebhooks(auth.workspace.slug);
  return { body: { ok: true, webhooks } };
});
