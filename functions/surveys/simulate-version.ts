/** POST /surveys/{id}/versions/{versionId}/simulate: walks a version's logic for given answers; stores nothing. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { simulate } from '../../lib/surveys/engine/simulate.ts';
import { versionNotFound } from '../../lib/surveys/errors.ts';
import { simulateSurveyVersion as route } from '../../lib/surveys/routes.ts';
import { findVersion } from '../../lib/surveys/store/versions.ts';

export async function simulateSurveyVersion({ params, body, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const version = await findVersion(auth.workspace.slug, params.id, params.versionId);
  if (!version) throw versionNotFound();
  return { body: { ok: true, run: simulate(version.definition, body.answers, body.language) } };
}

export const handler = apiHandler(route).handler(simulateSurveyVersion);
