/** POST /surveys: a draft survey with its first draft version; safe to retry with an Idempotency-Key. */

import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { starterDefinition } from '../../lib/surveys/engine/definition.ts';
import { validateDefinition } from '../../lib/surveys/engine/validate.ts';
import { createSurvey as route } from '../../lib/surveys/routes.ts';
import { type CreatedSurvey, createSurvey as storeSurvey } from '../../lib/surveys/store/surveys.ts';

export async function createSurvey({ body, auth, idempotency }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const definition = starterDefinition(body.language);
  const created = await storeSurvey(
    auth.workspace.slug,
    { name: body.name, language: body.language, definition, issues: validateDefinition(definition) },
    auth.key.id,
    idempotency,
  );
  return answer(created, created.replayed);
}

function answer(created: CreatedSurvey, replayed: boolean): ApiResult<typeof route> {
  return {
    body: { ok: true, survey: created.survey, version: created.version, designs: created.designs },
    headers: { ETag: etagOf(created.survey.version), ...replayHeaders(replayed) },
  };
}

export const handler = apiHandler(route).handler(createSurvey, { replay: (created) => answer(created as CreatedSurvey, false) });
