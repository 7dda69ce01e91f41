/** POST /sops/{id}/approve: under_review → published, recording the approving key. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { approveSop as route } from '../../lib/sops/routes.ts';
import { approveSop as approve } from '../../lib/sops/store/reviews.ts';

export async function approveSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sop = await approve(auth.workspace.slug, params.id, auth.key.id);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(approveSop);
