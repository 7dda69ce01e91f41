/** GET /webhooks/{id}: one webhook, without its secret. */
import { getWebhook as get } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { getWebhook as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function getWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, webhook: await get(auth.workspace.slug, params.id) } };
}

export const handler = apiHandler(route).handler(getWebhook);
