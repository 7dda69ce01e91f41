/** POST /webhooks: a new, disabled webhook and its secret (shown this once); safe to retry with an Idempotency-Key. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { createWebhook, rememberedWebhook } from '../../lib/webhooks/commands/create-webhook.ts';
import { createWebhook as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(
  async ({ auth, body, idempotency }) => {
    const { webhook, secret, replayed } = await createWebhook(auth.workspace.slug, body, idempotency, auth);
    return { body: { ok: true, webhook: { ...webhook, secret } }, headers: replayHeaders(replayed) };
  },
  {
    // The remembered response never holds the secret: a replay answers with the webhook as it is now.
    replay: async (remembered, { auth }) => {
      const { webhook, secret } = await rememberedWebhook(auth.workspace.slug, (remembered as { id: string }).id);
      return { body: { ok: true, webhook: { ...webhook, secret } } };
    },
  },
);
