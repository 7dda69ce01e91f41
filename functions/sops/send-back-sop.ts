/** POST /sops/{id}/send-back: under_review → draft, keeping the feedback as a review comment. */
import { sendBackSop as sendBack } from '../../lib/data/sops.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { sendBackSop as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function sendBackSop({ auth, params, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sop = await sendBack(auth.workspace.slug, params.id, body.feedback, auth.key.id);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(sendBackSop);
