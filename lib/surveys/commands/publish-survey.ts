/**
 * Publishes a version: reads the survey, the version and the version published now (to compare),
 * refuses errors (400) and unacknowledged breaking changes (409 with `changes`, journeys' metrics
 * bound to what changes included), then publishes in one transaction conditional on what was read.
 */
import { unboundJourneyMetrics } from '../../journeys/survey-bindings.ts';
import { BadRequestError, ConflictError } from '../../platform/errors.ts';
import { breakingChanges } from '../engine/breaking-changes.ts';
import { hasErrors, validateDefinition } from '../engine/validate.ts';
import type { Survey, SurveyVersion } from '../schemas.ts';
import { publishVersion, readForPublish } from '../store/published-versions.ts';

export async function publishSurvey(
  workspace: string,
  surveyId: string,
  { versionId, acknowledgeBreakingChanges }: { versionId: string; acknowledgeBreakingChanges?: boolean | undefined },
): Promise<{ survey: Survey; version: SurveyVersion }> {
  const plan = await readForPublish(workspace, surveyId, versionId);
  const { survey, version, published } = plan;
  if (version.status === 'superseded') {
    throw new ConflictError('version_locked', 'This version was superseded; create a new version from it and publish that');
  }
  // Already live: nothing changes, and the answer says so.
  if (version.status === 'published' && survey.status === 'published') return { survey, version };
  // Validated again, not trusted from the save: the engine's rules may have grown since.
  const issues = validateDefinition(version.definition);
  if (hasErrors(issues)) {
    const errors = issues.filter((issue) => issue.severity === 'error');
    throw new BadRequestError('invalid_definition', `The version has ${errors.length} error(s); fix them before publishing`, errors);
  }
  if (published) {
    const found = breakingChanges(published.definition, version.definition);
    // Published journey metrics computed from a question this removes or retypes are listed too.
    const changes = [...found, ...(await unboundJourneyMetrics(workspace, surveyId, found))];
    if (changes.length > 0 && acknowledgeBreakingChanges !== true) {
      throw new ConflictError(
        'breaking_changes',
        `Publishing would make ${changes.length} breaking change(s) to the published survey; send acknowledgeBreakingChanges: true to publish anyway`,
        { changes },
      );
    }
  }
  return publishVersion(workspace, plan);
}
