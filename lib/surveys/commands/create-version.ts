/**
 * A new draft copied from `fromVersionId`, else the published version, else the latest. Reads the
 * survey (and the named version), then the version to copy if none was named, then one transaction
 * that numbers the draft; a draft that lost its number to another reads again (state-rules.ts decides).
 */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { versionNotFound } from '../errors.ts';
import type { SurveyVersion } from '../schemas.ts';
import { newVersionRaceRefusal, newVersionRefusal, STATE_CHANGE_READS, unknownSourceVersion, versionsRaced } from '../state-rules.ts';
import { addVersion, findVersionSource, getVersionBasis } from '../store/versions.ts';

export type { SurveyVersion };

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
    const added = await addVersion(workspace, basis, from, keyId, idempotency);
    if (!('surveyChanged' in added)) return added;
    const raced = newVersionRaceRefusal(added.surveyChanged);
    if (raced) throw raced;
    if (attempt >= STATE_CHANGE_READS) throw versionsRaced();
  }
}
