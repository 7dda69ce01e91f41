/** POST /surveys/responses/erase: deletes up to 1,000 responses of one respondent across the workspace's surveys. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { eraseRespondent } from '../../lib/surveys/responses/respondent-erasure.ts';
import { eraseSurveyRespondent as route } from '../../lib/surveys/responses/routes.ts';

export async function eraseSurveyRespondent({ body, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { erased, hasMore } = await eraseRespondent(auth.workspace.slug, body);
  return { body: { ok: true, erased, hasMore } };
}

export const handler = apiHandler(route).handler(eraseSurveyRespondent);
