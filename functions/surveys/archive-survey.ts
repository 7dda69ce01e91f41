/** DELETE /surveys/{id}: archives (read-only from then on, omitted from the list; versions kept). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { archiveSurvey as storeArchive } from '../../lib/surveys/lifecycle.ts';
import { archiveSurvey as route } from '../../lib/surveys/routes.ts';

export async function archiveSurvey({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await storeArchive(auth.workspace.slug, params.id, precondition);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(archiveSurvey);
