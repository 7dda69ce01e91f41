/** POST /surveys/{id}/close: published → closed (stops collecting). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { closeSurvey as storeClose } from '../../lib/surveys/lifecycle.ts';
import { closeSurvey as route } from '../../lib/surveys/routes.ts';

export async function closeSurvey({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const survey = await storeClose(auth.workspace.slug, params.id);
  return { body: { ok: true, survey }, headers: { ETag: etagOf(survey.version) } };
}

export const handler = apiHandler(route).handler(closeSurvey);
