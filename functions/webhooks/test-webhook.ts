/** POST /webhooks/{id}/test: a signed `webhook.test` event, queued as a delivery. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { testWebhook } from '../../lib/webhooks/commands/test-webhook.ts';
import { testWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => ({
  body: { ok: true, delivery: await testWebhook(auth.workspace.slug, params.id) },
}));
