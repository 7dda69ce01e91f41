/**
 * Archives a survey (read-only from then on; its drafts refuse saves): reads the survey, the rules
 * (state-rules.ts) decide, the store writes on condition that nothing changed since the read, and a
 * write that found the survey changed reads again (a few times) instead of failing a client that did nothing wrong.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { archiveRaced, archiveRefusal, STATE_CHANGE_READS } from '../state-rules.ts';
import { getSurveyForStatusChange, writeArchive } from '../store/surveys.ts';

export async function archiveSurvey(workspace: string, id: string, precondition: VersionPrecondition): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const read = await getSurveyForStatusChange(workspace, id);
    const refused = archiveRefusal(read.survey, precondition);
    if (refused) throw refused;
    if (await writeArchive(workspace, read)) return;
    if (attempt >= STATE_CHANGE_READS) throw archiveRaced();
  }
}
