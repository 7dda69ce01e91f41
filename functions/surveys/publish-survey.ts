/**
 * POST /surveys/{id}/publish: reads the survey, the version and the version published now (to
 * compare), refuses errors (400) and unacknowledged breaking changes (409 with `changes`), then
 * publishes in one transaction conditional on what was read.
 */

import { unboundJourneyMetrics } from '../../lib/journeys/survey-bindings.ts';
import { BadRequestError, ConflictError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { breakingChanges } from '../../lib/surveys/engine/breaking-changes.ts';
import { hasErrors, validateDefinition } from '../../lib/surveys/engine/validate.ts';
import { publishSurvey as route } from '../../lib/surveys/routes.ts';
import { publishVersion, readForPublish } from '../../lib/surveys/store/published-versions.ts';

export async function publishSurvey({ params, body, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const plan = await readForPublish(slug, params.id, body.versionId);
  const { survey, version, published } = plan;
  if (version.status === 'superseded') {
    throw new ConflictError('version_locked', 'This version was superseded; create a new version from it and publish that');
  }
  if (version.status === 'published' && survey.status === 'published') {
    // Already live: nothing changes, and the answer says so.
    return { body: { ok: true, survey, version }, headers: { ETag: etagOf(survey.version) } };
  }
  // Validated again, not trusted from the save: the engine's rules may have grown since.
  const issues = validateDefinition(version.definition);
  if (hasErrors(issues)) {
    const errors = issues.filter((issue) => issue.severity === 'error');
    throw new BadRequestError('invalid_definition', `The version has ${errors.length} error(s); fix them before publishing`, errors);
  }
  if (published) {
    const found = breakingChanges(published.definition, version.definition);
    // Published journey metrics computed from a question this removes or retypes are listed too.
    const changes = [...found, ...(await unboundJourneyMetrics(slug, params.id, found))];
    if (changes.length > 0 && body.acknowledgeBreakingChanges !== true) {
      throw new ConflictError(
        'breaking_changes',
        `Publishing would make ${changes.length} breaking change(s) to the published survey; send acknowledgeBreakingChanges: true to publish anyway`,
        { changes },
      );
    }
  }
  const result = await publishVersion(slug, plan);
  return { body: { ok: true, survey: result.survey, version: result.version }, headers: { ETag: etagOf(result.survey.version) } };
}

export const handler = apiHandler(route).handler(publishSurvey);
