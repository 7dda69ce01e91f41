/** DELETE /sops/{id}: the SOP and its review comments, in any state. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { deleteSop as route } from '../../lib/sops/routes.ts';
import { deleteSop as removeSop } from '../../lib/sops/store/sops.ts';

export async function deleteSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await removeSop(auth.workspace.slug, params.id);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteSop);
