/** DELETE /surveys/{id}/versions/{versionId}: discards a draft (published and superseded versions are kept). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { deleteSurveyVersion as route } from '../../lib/surveys/routes.ts';
import { deleteVersion } from '../../lib/surveys/store/versions.ts';

export async function deleteSurveyVersion({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await deleteVersion(auth.workspace.slug, params.id, params.versionId);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteSurveyVersion);
