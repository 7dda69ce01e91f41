/** DELETE /sops/{id}: the SOP and its review comments, in any state. */
import { deleteSop as removeSop } from '../../lib/data/sops.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { deleteSop as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function deleteSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await removeSop(auth.workspace.slug, params.id);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteSop);
