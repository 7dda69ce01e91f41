/** POST /webhooks: a new, disabled webhook and its secret (shown this once). */
import { createWebhook as create } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { createWebhook as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';
import { checkReceiverUrl } from '../../lib/webhooks/receivers.ts';

export async function createWebhook({ auth, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await checkReceiverUrl(body.url);
  const { webhook, secret } = await create(auth.workspace.slug, body);
  return { body: { ok: true, webhook: { ...webhook, secret } } };
}

export const handler = apiHandler(route).handler(createWebhook);
