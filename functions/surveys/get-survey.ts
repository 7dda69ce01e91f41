/** GET /surveys/{id}: the survey, its version summaries and the workspace's designs, in one BatchGetItem. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { getSurvey as route } from '../../lib/surveys/routes.ts';
import { getSurvey as readSurvey, surveyNotFound } from '../../lib/surveys/store.ts';

export async function getSurvey({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const found = await readSurvey(auth.workspace.slug, params.id);
  if (!found) throw surveyNotFound();
  return { body: { ok: true, ...found }, headers: { ETag: etagOf(found.survey.version) } };
}

export const handler = apiHandler(route).handler(getSurvey);
