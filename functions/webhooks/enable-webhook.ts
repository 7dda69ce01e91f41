/** POST /webhooks/{id}/enable: verify the receiver with a signed event, then enable. */

import { NotFoundError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { verifyReceiver } from '../../lib/webhooks/receivers.ts';
import { enableWebhook as route } from '../../lib/webhooks/routes.ts';
import { enableVerifiedWebhook, findWebhookRecord } from '../../lib/webhooks/store.ts';

export async function enableWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const record = await findWebhookRecord(auth.workspace.slug, params.id);
  if (!record) throw new NotFoundError('not_found', 'No webhook with this id in this workspace');
  await verifyReceiver(record);
  return { body: { ok: true, webhook: await enableVerifiedWebhook(auth.workspace.slug, record) } };
}

export const handler = apiHandler(route).handler(enableWebhook);
