/** POST /sops/{id}/submit: draft → under_review. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { submitSop as route } from '../../lib/sops/routes.ts';
import { submitSop as submit } from '../../lib/sops/store/reviews.ts';

export async function submitSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sop = await submit(auth.workspace.slug, params.id);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(submitSop);
