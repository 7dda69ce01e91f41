/** POST /sops/{id}/send-back: under_review → draft, keeping the feedback as a review comment. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { sendBackSop as route } from '../../lib/sops/routes.ts';
import { sendBackSop as sendBack } from '../../lib/sops/store/reviews.ts';

export async function sendBackSop({ auth, params, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sop = await sendBack(auth.workspace.slug, params.id, body.feedback, auth.key.id);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(sendBackSop);
