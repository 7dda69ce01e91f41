/** The Surveys area's own error answers, on the platform's typed errors. */
import { ConflictError, ContentTooLargeError, NotFoundError, VersionConflictError } from '../platform/errors.ts';

/** Another workspace's id answers exactly like one that never existed. */
export const surveyNotFound = () => new NotFoundError('not_found', 'No survey with this id in this workspace');
export const versionNotFound = () => new NotFoundError('not_found', 'No version with this id in this survey');
export const designNotFound = () => new NotFoundError('not_found', 'No design with this id in this workspace');
export const surveyArchived = () => new ConflictError('survey_archived', 'The survey is archived and read-only');
export const versionLocked = (status: string) =>
  new ConflictError('version_locked', `The version is ${status}, and only drafts change; create a new version from it instead`);
export const definitionTooLarge = () =>
  new ContentTooLargeError('The definition does not fit in one version, even compressed', 'definition_too_large');

/** 404, 409 `survey_archived` or 409 `version_conflict`, from the survey item a failed condition saw. */
export function surveyConditionFailure(current: Record<string, unknown> | undefined): Error {
  if (!current) return surveyNotFound();
  if (current.status === 'archived') return surveyArchived();
  return new VersionConflictError(Number(current.version ?? 0));
}
