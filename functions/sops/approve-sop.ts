/** POST /sops/{id}/approve: under_review → published, recording the approving key. */
import { approveSop as approve } from '../../lib/data/sops.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { approveSop as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function approveSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sop = await approve(auth.workspace.slug, params.id, auth.key.id);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(approveSop);
