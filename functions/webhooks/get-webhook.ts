/** GET /webhooks/{id}: one webhook, without its secret. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { getWebhook as route } from '../../lib/webhooks/routes.ts';
import { getWebhook as get } from '../../lib/webhooks/store.ts';

export async function getWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, webhook: await get(auth.workspace.slug, params.id) } };
}

export const handler = apiHandler(route).handler(getWebhook);
