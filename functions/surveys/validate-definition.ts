/** POST /surveys/validate: a definition's issues, as a save would report them; nothing is stored. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { validateDefinition } from '../../lib/surveys/engine/validate.ts';
import { validateSurveyDefinition as route } from '../../lib/surveys/routes.ts';
import { assertDefinitionSize } from '../../lib/surveys/rules.ts';

export async function validateSurveyDefinition({ body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertDefinitionSize(body.definition);
  return { body: { ok: true, issues: validateDefinition(body.definition) } };
}

export const handler = apiHandler(route).handler(validateSurveyDefinition);
