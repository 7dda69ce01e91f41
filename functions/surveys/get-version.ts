/** GET /surveys/{id}/versions/{versionId}: one version with its definition and issues (GetItem). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { versionNotFound } from '../../lib/surveys/errors.ts';
import { getSurveyVersion as route } from '../../lib/surveys/routes.ts';
import { findVersion } from '../../lib/surveys/store/versions.ts';

export async function getSurveyVersion({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const version = await findVersion(auth.workspace.slug, params.id, params.versionId);
  if (!version) throw versionNotFound();
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
}

export const handler = apiHandler(route).handler(getSurveyVersion);
