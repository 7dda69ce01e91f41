/** POST /webhooks/{id}/rotate: a new secret (shown this once); the webhook is disabled until enabled again. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { rotateWebhookSecret as route } from '../../lib/webhooks/routes.ts';
import { rotateWebhookSecret as rotate } from '../../lib/webhooks/store.ts';

export async function rotateWebhookSecret({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { webhook, secret } = await rotate(auth.workspace.slug, params.id);
  return { body: { ok: true, webhook: { ...webhook, secret } } };
}

export const handler = apiHandler(route).handler(rotateWebhookSecret);
