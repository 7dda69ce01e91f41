/** GET /webhooks/{id}: one webhook, without its secret. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getWebhook } from '../../lib/webhooks/commands/get-webhook.ts';
import { getWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const webhook = await getWebhook(auth.workspace.slug, params.id);
  return { body: { ok: true, webhook } };
});
