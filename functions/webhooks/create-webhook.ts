/** POST /webhooks: a new, disabled webhook and its secret (shown this once). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { checkReceiverUrl } from '../../lib/webhooks/receivers.ts';
import { createWebhook as route } from '../../lib/webhooks/routes.ts';
import { createWebhook as create } from '../../lib/webhooks/store.ts';

export async function createWebhook({ auth, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await checkReceiverUrl(body.url);
  const { webhook, secret } = await create(auth.workspace.slug, body);
  return { body: { ok: true, webhook: { ...webhook, secret } } };
}

export const handler = apiHandler(route).handler(createWebhook);
