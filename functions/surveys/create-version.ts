/** POST /surveys/{id}/versions: a new draft copied from a version (default: the published one, else the latest). */

import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { createVersion } from '../../lib/surveys/lifecycle.ts';
import { createSurveyVersion as route } from '../../lib/surveys/routes.ts';
import type { SurveyVersion } from '../../lib/surveys/schemas.ts';

export async function createSurveyVersion({ params, body, auth, idempotency }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { version, replayed } = await createVersion(auth.workspace.slug, params.id, body.fromVersionId, auth.key.id, idempotency);
  return answer(version, replayed);
}

function answer(version: SurveyVersion, replayed: boolean): ApiResult<typeof route> {
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision), ...replayHeaders(replayed) } };
}

export const handler = apiHandler(route).handler(createSurveyVersion, { replay: (version) => answer(version as SurveyVersion, false) });
