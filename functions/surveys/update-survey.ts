/**
 * PATCH /surveys/{id}: settings in one conditional UpdateItem. A `designId` or `targetingRules`
 * is first checked against the workspace's designs and audience catalog (one more read, which for
 * `targetingRules` also reads the survey: that write is a transaction with its collecting copies).
 */

import { ValidationError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { surveyNotFound } from '../../lib/surveys/errors.ts';
import { updateSurvey as route } from '../../lib/surveys/routes.ts';
import { assertTargetingValid } from '../../lib/surveys/rules.ts';
import { listDesignsAndAudience, updateSurvey as storeChanges } from '../../lib/surveys/store/surveys.ts';

export async function updateSurvey({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  let surveyItem: Record<string, unknown> | undefined;
  if (body.designId || body.targetingRules !== undefined) {
    const read = await listDesignsAndAudience(slug, body.targetingRules !== undefined ? params.id : undefined);
    const { designs, audience } = read;
    surveyItem = read.surveyItem;
    if (body.targetingRules !== undefined && !surveyItem) throw surveyNotFound();
    // Another workspace's design is as unknown here as one that never existed.
    if (body.designId && !designs.some((design) => design.id === body.designId)) {
      throw new ValidationError('invalid_body', [
        { path: 'body.designId', message: 'must be a design of this workspace (GET /surveys/designs)' },
      ]);
    }
    if (body.targetingRules) assertTargetingValid(body.targetingRules, audience);
  }
  const survey = await storeChanges(slug, params.id, body, precondition, surveyItem);
  return { body: { ok: true, survey }, headers: { ETag: etagOf(survey.version) } };
}

export const handler = apiHandler(route).handler(updateSurvey);
