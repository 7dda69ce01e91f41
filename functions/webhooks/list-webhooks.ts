/** GET /webhooks: every webhook of the workspace, without secrets. */
import { listWebhooks as list } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { listWebhooks as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function listWebhooks({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, webhooks: await list(auth.workspace.slug) } };
}

export const handler = apiHandler(route).handler(listWebhooks);
