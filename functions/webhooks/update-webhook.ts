/** PATCH /webhooks/{id}: change name, URL or events; a new URL disables the webhook. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { updateWebhook } from '../../lib/webhooks/commands/update-webhook.ts';
import { updateWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params, body }) => {
  const webhook = await updateWebhook(auth.workspace.slug, params.id, body, auth);
  return { body: { ok: true, webhook } };
});
