/** POST /webhooks: a new, disabled webhook and its secret (shown this once); safe to retry with an Idempotency-Key. */

import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { assertMaySubscribe } from '../../lib/webhooks/events.ts';
import { checkReceiverUrl } from '../../lib/webhooks/receivers.ts';
import { createWebhook as route } from '../../lib/webhooks/routes.ts';
import { createWebhook as create } from '../../lib/webhooks/store.ts';

export async function createWebhook({ auth, body, idempotency }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertMaySubscribe(auth, body.events);
  await checkReceiverUrl(body.url);
  const { webhook, secret, replayed } = await create(auth.workspace.slug, body, idempotency);
  return { body: { ok: true, webhook: { ...webhook, secret } }, headers: replayHeaders(replayed) };
}

export const handler = apiHandler(route).handler(createWebhook);
