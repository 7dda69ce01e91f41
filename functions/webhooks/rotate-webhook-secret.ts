/** POST /webhooks/{id}/rotate: a new secret (shown this once); the webhook is disabled until enabled again. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { rotateWebhookSecret } from '../../lib/webhooks/commands/rotate-webhook-secret.ts';
import { rotateWebhookSecret as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const { webhook, secret } = await rotateWebhookSecret(auth.workspace.slug, params.id);
  return { body: { ok: true, webhook: { ...webhook, secret } } };
});
