/** PATCH /webhooks/{id}: change name, URL or events; a new URL disables the webhook. */
import { updateWebhook as update } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { updateWebhook as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';
import { checkReceiverUrl } from '../../lib/webhooks/receivers.ts';

export async function updateWebhook({ auth, params, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  if (body.url !== undefined) await checkReceiverUrl(body.url);
  return { body: { ok: true, webhook: await update(auth.workspace.slug, params.id, body) } };
}

export const handler = apiHandler(route).handler(updateWebhook);
