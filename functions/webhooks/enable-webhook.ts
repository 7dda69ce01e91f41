/** POST /webhooks/{id}/enable: verify the receiver with a signed event, then enable. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { enableWebhook } from '../../lib/webhooks/commands/enable-webhook.ts';
import { enableWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const webhook = await enableWebhook(auth.workspace.slug, params.id);
  return { body: { ok: true, webhook } };
});
