/**
 * POST /webhooks/{id}/disable: no more deliveries until enabled again; deliveries waiting for a
 * retry show `cancelled` in the answer's wake, not when their time comes.
 */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { disableAndCancelRetries } from '../../lib/webhooks/disabling.ts';
import { disableWebhook as route } from '../../lib/webhooks/routes.ts';

export async function disableWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const webhook = await disableAndCancelRetries(auth.workspace.slug, params.id, { by: 'request' });
  return { body: { ok: true, webhook } };
}

export const handler = apiHandler(route).handler(disableWebhook);
