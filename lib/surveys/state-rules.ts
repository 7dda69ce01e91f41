/**
 * What a survey's state allows, apart from the store: the store reads (or a failed write's condition
 * hands back) the survey or version as it stands, these rules decide the answer, and the write's own
 * condition still guards the race between the two. Pure functions over records and stored items.
 */

import { meetsPrecondition, type VersionPrecondition } from '../platform/data/conditions.ts';
import { BadRequestError, ConflictError, ValidationError, VersionConflictError } from '../platform/errors.ts';
import { surveyArchived, surveyNotFound, versionLocked, versionNotFound } from './errors.ts';
import { SURVEY_LIMITS, type Survey, type VersionSummary } from './schemas.ts';

/** Reads before a state change that keeps finding the survey changed answers 409 `version_conflict`. */
export const STATE_CHANGE_READS = 3;

/** Why a new version cannot be added to the survey as read, or null when it can. */
export function newVersionRefusal(survey: Survey, summaries: readonly VersionSummary[]): Error | null {
  if (survey.status === 'archived') return surveyArchived();
  if (summaries.length >= SURVEY_LIMITS.versions) {
    return new ConflictError('version_limit', `A survey keeps at most ${SURVEY_LIMITS.versions} versions; discard a draft first`);
  }
  return null;
}

export const unknownSourceVersion = () => new BadRequestError('invalid_body', 'fromVersionId names no version of this survey');

/** Why a new version's write found the survey changed (404, 409 `survey_archived`), or null when it only lost a race for its number. */
export function newVersionRaceRefusal(current: Record<string, unknown> | undefined): Error | null {
  if (!current) return surveyNotFound();
  if (current.status === 'archived') return surveyArchived();
  return null;
}

export const versionsRaced = () => new ConflictError('version_conflict', 'Other versions were being created at the same time; try again');

/** Why the survey as read cannot be archived under `precondition` (If-Match), or null when it can. */
export function archiveRefusal(survey: Survey, precondition: VersionPrecondition): Error | null {
  if (survey.status === 'archived') return surveyArchived();
  if (!meetsPrecondition(precondition, survey.version)) return new VersionConflictError(survey.version);
  return null;
}

export const archiveRaced = () => new ConflictError('version_conflict', 'The survey changed while it was being archived; try again');

/** Why the survey as read cannot be closed, or null: only a published survey closes. */
export function closeRefusal(survey: Survey): Error | null {
  if (survey.status === 'archived') return surveyArchived();
  if (survey.status !== 'published') {
    return new BadRequestError('invalid_state', `Only a published survey can be closed; this one is ${survey.status}`);
  }
  return null;
}

/**
 * Why a draft write's condition failed, from the version item it saw: gone (404), its survey
 * archived, no longer a draft, a definition without the survey's language, else a stale revision.
 */
export function versionWriteFailure(current: Record<string, unknown> | undefined, languages: readonly string[] = []): Error {
  if (!current) return versionNotFound();
  if (current.surveyArchived === true) return surveyArchived();
  const status = (current.status as string | undefined) ?? 'draft';
  if (status !== 'draft') return versionLocked(status);
  const language = current.surveyLanguage as string | undefined;
  if (language && languages.length > 0 && !languages.includes(language)) {
    return new ValidationError('invalid_body', [
      { path: 'body.definition.languages', message: `must include ${language}, the survey's language` },
    ]);
  }
  return new VersionConflictError(Number(current.revision ?? 0));
}
