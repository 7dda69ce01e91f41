/** POST /webhooks/{id}/disable: no more deliveries until enabled again; waiting retries are cancelled. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { disableWebhook } from '../../lib/webhooks/commands/disable-webhook.ts';
import { disableWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const webhook = await disableWebhook(auth.workspace.slug, params.id);
  return { body: { ok: true, webhook } };
});
