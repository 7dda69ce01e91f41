/**
 * PUT /surveys/{id}/versions/{versionId}: saves a draft's definition with fresh issues, in one
 * conditional UpdateItem on the revision the client read (If-Match is required: two editors of
 * one draft must never overwrite each other silently).
 */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { validateDefinition } from '../../lib/surveys/engine/validate.ts';
import { replaceSurveyVersion as route } from '../../lib/surveys/routes.ts';
import { assertDefinitionSize } from '../../lib/surveys/rules.ts';
import { replaceVersion } from '../../lib/surveys/store/versions.ts';

export async function replaceSurveyVersion({
  params,
  body,
  precondition,
  auth,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertDefinitionSize(body.definition);
  const issues = validateDefinition(body.definition);
  const version = await replaceVersion(
    auth.workspace.slug,
    params.id,
    params.versionId,
    { definition: body.definition, issues },
    precondition.versions,
  );
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
}

export const handler = apiHandler(route).handler(replaceSurveyVersion);
