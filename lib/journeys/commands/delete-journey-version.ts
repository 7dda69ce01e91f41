/**
 * DELETE a draft: tried as one transaction straight away (store/drafts.ts: deleteDraft). Only when
 * it is refused does one read tell why, in the order: 404, archived, published, a stale
 * If-Match, the journey's last version, else a change in between.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { ConflictError } from '../../platform/errors.ts';
import { lastVersion } from '../errors.ts';
import { assertRevision, assertWritable } from '../state-rules.ts';
import { deleteDraft } from '../store/drafts.ts';
import { readJourneyAndVersion } from '../store/items.ts';

export async function deleteJourneyVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<void> {
  if (await deleteDraft(workspace, journeyId, versionId, precondition)) return;
  const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, false);
  assertWritable(journey, version);
  assertRevision(precondition, Number(version.revision), false);
  if (Number(journey!.versionCount) <= 1) throw lastVersion();
  throw new ConflictError('version_conflict', 'The journey changed while deleting; try again');
}
