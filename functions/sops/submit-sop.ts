/** POST /sops/{id}/submit: draft → under_review. */
import { submitSop as submit } from '../../lib/data/sops.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { submitSop as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function submitSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sop = await submit(auth.workspace.slug, params.id);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(submitSop);
