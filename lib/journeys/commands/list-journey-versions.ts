/** One page of a journey's versions with complete content, newest first, cut before 5 MB (store/versions.ts). */
import type { PageStart } from '../../platform/pagination.ts';
import { listVersions, type VersionPage } from '../store/versions.ts';

export function listJourneyVersions(workspace: string, journeyId: string, start: PageStart): Promise<VersionPage> {
  return listVersions(workspace, journeyId, start);
}
