/** POST /webhooks/{id}/recover: a recovery started, its first step queued; safe to retry with an Idempotency-Key. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { recoverWebhook, rememberedRecovery } from '../../lib/webhooks/commands/recover-webhook.ts';
import { recoverWebhook as route } from '../../lib/webhooks/routes.ts';
import type { Recovery } from '../../lib/webhooks/schemas.ts';

export const handler = apiHandler(route).handler(
  async ({ auth, params, body, idempotency }) => {
    const { recovery, replayed } = await recoverWebhook(auth.workspace.slug, params.id, body, idempotency);
    return { body: { ok: true, recovery }, headers: replayHeaders(replayed) };
  },
  {
    replay: async (remembered, { auth }) => ({
      body: { ok: true, recovery: await rememberedRecovery(auth.workspace.slug, remembered as Recovery) },
    }),
  },
);
