/**
 * The Surveys area's own error answers, on the platform's typed errors, and the codes it adds to the
 * catalog (survey responses' included).
 */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { ConflictError, ContentTooLargeError, NotFoundError, VersionConflictError } from '../platform/errors.ts';

export const surveyErrorCodes = defineErrorCodes({
  400: {
    invalid_definition: 'The version’s logic has errors, so it is not published; `issues` lists them',
    invalid_answers:
      'The answers do not replay on the survey (a question never shown on their path, an option not offered, a wrong type, a required ' +
      'question left unanswered); `issues` lists each, with `severity`, `code`, `message` and `path`',
    respondent_not_targeted: 'The respondent’s attributes do not meet the survey’s targeting rules',
  },
  409: {
    survey_archived: 'The survey is archived and read-only',
    survey_not_collecting: 'The survey is a draft, closed or archived: only a published survey collects responses',
    response_finished: 'A finished response never changes',
    version_limit: 'The survey already keeps 50 versions: delete a draft first',
    design_limit: 'The workspace already has 50 designs besides the default',
    breaking_changes:
      'Publishing would break answers already collected: `changes` lists what; `acknowledgeBreakingChanges: true` publishes anyway',
  },
  413: {
    definition_too_large: 'The definition is over 1 MB of UTF-8 JSON, or does not fit one version even compressed',
    response_too_large: 'The answers are over 64 KB of UTF-8 JSON',
  },
});

/** Another workspace's id answers exactly like one that never existed. */
export const surveyNotFound = () => new NotFoundError('not_found', 'No survey with this id in this workspace');
export const versionNotFound = () => new NotFoundError('not_found', 'No version with this id in this survey');
export const designNotFound = () => new NotFoundError('not_found', 'No design with this id in this workspace');
export const surveyArchived = () => new ConflictError('survey_archived', 'The survey is archived and read-only');
export const versionLocked = (status: string) =>
  new ConflictError('version_locked', `The version is ${status}, and only drafts change; create a new version from it instead`);
export const responseNotFound = () => new NotFoundError('not_found', 'No response with this id in this survey');
export const responseFinished = () => new ConflictError('response_finished', 'The response is finished and can no longer change');
export const surveyNotCollecting = (status: string) =>
  new ConflictError('survey_not_collecting', `The survey is ${status}; only a published survey collects responses`);
export const exportNotFound = () => new NotFoundError('not_found', 'No such export of this survey (exports expire after 24 hours)');
export const definitionTooLarge = () =>
  new ContentTooLargeError('The definition does not fit in one version, even compressed', 'definition_too_large');

/** 404, 409 `survey_archived` or 409 `version_conflict`, from the survey item a failed condition saw. */
export function surveyConditionFailure(current: Record<string, unknown> | undefined): Error {
  if (!current) return surveyNotFound();
  if (current.status === 'archived') return surveyArchived();
  return new VersionConflictError(Number(current.version ?? 0));
}
