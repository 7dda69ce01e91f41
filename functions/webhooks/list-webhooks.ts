/** GET /webhooks: every webhook of the workspace, without secrets. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listWebhooks as route } from '../../lib/webhooks/routes.ts';
import { listWebhooks as list } from '../../lib/webhooks/store.ts';

export async function listWebhooks({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, webhooks: await list(auth.workspace.slug) } };
}

export const handler = apiHandler(route).handler(listWebhooks);
