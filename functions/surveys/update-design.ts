/** PATCH /surveys/designs/{designId}: changes a design in one conditional UpdateItem. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { updateSurveyDesign as route } from '../../lib/surveys/routes.ts';
import { updateDesign } from '../../lib/surveys/store/designs.ts';

export async function updateSurveyDesign({ params, body, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, design: await updateDesign(auth.workspace.slug, params.designId, body) } };
}

export const handler = apiHandler(route).handler(updateSurveyDesign);
