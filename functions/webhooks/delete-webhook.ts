/** DELETE /webhooks/{id}: gone at once, and its place under the workspace limit is free again. */
import { deleteWebhook as remove } from '../../lib/data/webhooks.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { deleteWebhook as route } from '../../lib/routes/webhooks.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function deleteWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await remove(auth.workspace.slug, params.id);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteWebhook);
