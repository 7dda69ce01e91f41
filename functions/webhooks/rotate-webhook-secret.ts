/** POST /webhooks/{id}/rotate: a new secret (shown this once); the webhook is disabled until enabled again. */
import { rotateWebhookSecret as rotate } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { rotateWebhookSecret as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function rotateWebhookSecret({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { webhook, secret } = await rotate(auth.workspace.slug, params.id);
  return { body: { ok: true, webhook: { ...webhook, secret } } };
}

export const handler = apiHandler(route).handler(rotateWebhookSecret);
