/** GET /surveys/{id}: the survey, its version summaries and the workspace's designs, in one BatchGetItem. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { surveyNotFound } from '../../lib/surveys/errors.ts';
import { getSurvey as route } from '../../lib/surveys/routes.ts';
import { findSurvey } from '../../lib/surveys/store/surveys.ts';

export async function getSurvey({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const found = await findSurvey(auth.workspace.slug, params.id);
  if (!found) throw surveyNotFound();
  return { body: { ok: true, ...found }, headers: { ETag: etagOf(found.survey.version) } };
}

export const handler = apiHandler(route).handler(getSurvey);
