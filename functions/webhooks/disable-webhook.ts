/**
 * POST /webhooks/{id}/disable: no more deliveries until enabled again; deliveries waiting for a
 * retry show `cancelled` in the answer's wake, not when their time comes.
 */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { cancelWaitingRetries } from '../../lib/webhooks/deliveries.ts';
import { disableWebhook as route } from '../../lib/webhooks/routes.ts';
import { disableWebhook as disable } from '../../lib/webhooks/store.ts';

export async function disableWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const webhook = await disable(auth.workspace.slug, params.id);
  // After the webhook is disabled, so that a retry claimed from now on is cancelled by its attempt.
  await cancelWaitingRetries(auth.workspace.slug, params.id, 'the webhook was disabled');
  return { body: { ok: true, webhook } };
}

export const handler = apiHandler(route).handler(disableWebhook);
