/** DELETE /webhooks/{id}: gone at once, and its place under the workspace limit is free again. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { deleteWebhook as route } from '../../lib/webhooks/routes.ts';
import { deleteWebhook as remove } from '../../lib/webhooks/store.ts';

export async function deleteWebhook({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await remove(auth.workspace.slug, params.id);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteWebhook);
