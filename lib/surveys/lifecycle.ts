/**
 * Survey changes that depend on the survey's state: the store reads, the rules (state-rules.ts)
 * decide, the store writes on condition that nothing changed since the read, and a write that
 * found the survey changed reads again (a few times) instead of failing a client that did nothing wrong.
 */

import type { VersionPrecondition } from '../platform/data/conditions.ts';
import type { IdempotentRequest } from '../platform/data/idempotency.ts';
import { TransactionCancelledError } from '../platform/data/transact.ts';
import { versionNotFound } from './errors.ts';
import type { Survey, SurveyVersion } from './schemas.ts';
import {
  archiveRaced,
  archiveRefusal,
  closeRefusal,
  newVersionRaceRefusal,
  newVersionRefusal,
  unknownSourceVersion,
  versionsRaced,
} from './state-rules.ts';
import { getSurveyForStatusChange, writeArchive, writeClose } from './store/surveys.ts';
import { addVersion, findVersionSource, getVersionBasis } from './store/versions.ts';

/** Reads before a write that keeps finding the survey changed answers 409 `version_conflict`. */
const READS = 3;

/** Archives a survey (read-only from then on); its drafts refuse saves. */
export async function archiveSurvey(workspace: string, id: string, precondition: VersionPrecondition): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const read = await getSurveyForStatusChange(workspace, id);
    const refused = archiveRefusal(read.survey, precondition);
    if (refused) throw refused;
    try {
      await writeArchive(workspace, read);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCancelledError)) throw error;
      if (attempt >= READS) throw archiveRaced();
    }
  }
}

/** Published → closed; anything else is refused. */
export async function closeSurvey(workspace: string, id: string): Promise<Survey> {
  const { survey } = await getSurveyForStatusChange(workspace, id);
  const refused = closeRefusal(survey);
  if (refused) throw refused;
  return writeClose(workspace, survey);
}

/**
 * A new draft copied from `fromVersionId`, else the published version, else the latest. Reads the
 * survey (and the named version), then the version to copy if none was named, then one transaction
 * that numbers the draft; a draft that lost its number to another reads again.
 */
export async function createVersion(
  workspace: string,
  surveyId: string,
  fromVersionId: string | undefined,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: SurveyVersion; replayed: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const basis = await getVersionBasis(workspace, surveyId, fromVersionId);
    const refused = newVersionRefusal(basis.survey, basis.summaries);
    if (refused) throw refused;
    if (fromVersionId && !basis.from) throw unknownSourceVersion();
    let from = basis.from;
    if (!from) {
      const sourceId = basis.survey.publishedVersionId ?? basis.summaries[0]?.id;
      from = sourceId ? await findVersionSource(workspace, surveyId, sourceId) : null;
      if (!from) throw versionNotFound();
    }
    try {
      return await addVersion(workspace, basis, from, keyId, idempotency);
    } catch (error) {
      if (!(error instanceof TransactionCancelledError) || !error.failed('survey')) throw error;
      const raced = newVersionRaceRefusal(error.current('survey') ?? undefined);
      if (raced) throw raced;
      if (attempt >= READS) throw versionsRaced();
    }
  }
}
