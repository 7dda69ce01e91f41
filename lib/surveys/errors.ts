/**
 * The Surveys area's own error answers, on the platform's typed errors, and the codes it adds to the
 * catalog (survey responses' included).
 */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { ConflictError, ContentTooLargeError, NotFoundError, VersionConflictError } from '../platform/errors.ts';

export const surveyErrorCodes = defineErrorCodes({
  invalid_definition: { status: 400, meaning: 'The version’s logic has errors, so it is not published; `issues` lists them' },
  invalid_answers: {
    status: 400,
    meaning:
      'The answers do not replay on the survey (a question never shown on their path, an option not offered, a wrong type, a required ' +
      'question left unanswered); `issues` lists each, with `severity`, `code`, `message` and `path`',
  },
  respondent_not_targeted: { status: 400, meaning: 'The respondent’s attributes do not meet the survey’s targeting rules' },
  survey_archived: { status: 409, meaning: 'The survey is archived and read-only' },
  survey_not_collecting: { status: 409, meaning: 'The survey is a draft, closed or archived: only a published survey collects responses' },
  response_finished: { status: 409, meaning: 'A finished response never changes' },
  version_limit: { status: 409, meaning: 'The survey already keeps 50 versions: delete a draft first' },
  design_limit: { status: 409, meaning: 'The workspace already has 50 designs besides the default' },
  breaking_changes: {
    status: 409,
    meaning: 'Publishing would break answers already collected: `changes` lists what; `acknowledgeBreakingChanges: true` publishes anyway',
  },
  definition_too_large: { status: 413, meaning: 'The definition is over 1 MB of UTF-8 JSON, or does not fit one version even compressed' },
  response_too_large: { status: 413, meaning: 'The answers are over 64 KB of UTF-8 JSON' },
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
