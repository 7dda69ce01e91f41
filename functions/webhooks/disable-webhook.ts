/** POST /webhooks/{id}/disable: no more deliveries until enabled again. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { disableWebhook as route } from '../../lib/webhooks/routes.ts';
import { disableWebhook as disable } from '../../lib/webhooks/store.ts';

export async function disableWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, webhook: await disable(auth.workspace.slug, params.id) } };
}

export const handler = apiHandler(route).handler(disableWebhook);
