/** GET a version: one GetItem; the journey id is part of the key, so a version of another journey is not found. */
import type { JourneyVersion } from '../schemas.ts';
import { getVersion } from '../store/versions.ts';

export function getJourneyVersion(workspace: string, journeyId: string, versionId: string): Promise<JourneyVersion> {
  return getVersion(workspace, journeyId, versionId);
}
