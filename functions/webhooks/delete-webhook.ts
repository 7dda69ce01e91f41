/** DELETE /webhooks/{id}: gone at once, and its place under the workspace limit is free again. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { deleteWebhook } from '../../lib/webhooks/commands/delete-webhook.ts';
import { deleteWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  await deleteWebhook(auth.workspace.slug, params.id);
  return { body: { ok: true } };
});
