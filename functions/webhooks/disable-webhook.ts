/** POST /webhooks/{id}/disable: no more deliveries until enabled again. */
import { disableWebhook as disable } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { disableWebhook as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function disableWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, webhook: await disable(auth.workspace.slug, params.id) } };
}

export const handler = apiHandler(route).handler(disableWebhook);
