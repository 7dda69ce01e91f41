/** PATCH a draft's label: one read (the version is returned whole), the state rules, then the label, without touching `revision`. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { toVersion } from '../record.ts';
import type { JourneyVersion } from '../schemas.ts';
import { assertRevision, assertWritable } from '../state-rules.ts';
import { writeLabel } from '../store/drafts.ts';
import { readJourneyAndVersion } from '../store/items.ts';

export async function updateJourneyVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  label: string,
  precondition: VersionPrecondition,
): Promise<JourneyVersion> {
  const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, true);
  assertWritable(journey, version);
  const read = Number(version.revision);
  assertRevision(precondition, read, false);
  const now = new Date().toISOString();
  await writeLabel(workspace, journeyId, versionId, { label, read, now });
  return { ...toVersion(version), label, updatedAt: now };
}
