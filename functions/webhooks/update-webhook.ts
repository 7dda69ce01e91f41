/** PATCH /webhooks/{id}: change name, URL or events; a new URL disables the webhook. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { assertMaySubscribe } from '../../lib/webhooks/events.ts';
import { checkReceiverUrl } from '../../lib/webhooks/receivers.ts';
import { updateWebhook as route } from '../../lib/webhooks/routes.ts';
import { updateWebhook as update } from '../../lib/webhooks/store.ts';

export async function updateWebhook({ auth, params, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertMaySubscribe(auth, body.events);
  if (body.url !== undefined) await checkReceiverUrl(body.url);
  return { body: { ok: true, webhook: await update(auth.workspace.slug, params.id, body) } };
}

export const handler = apiHandler(route).handler(updateWebhook);
