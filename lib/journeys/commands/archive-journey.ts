/**
 * DELETE a journey archives it: one read, the state rules (an active journey, at If-Match, that no
 * other journey's published version pairs), then one transaction (store/journeys.ts: writeArchive).
 * When the journey changed between the read and the write, it decides again on what the journey is
 * now: with If-Match that answers 409 at once; without, a rename in between is no reason to refuse.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { ConflictError } from '../../platform/errors.ts';
import { assertArchivable } from '../state-rules.ts';
import { readJourneyItem, writeArchive } from '../store/journeys.ts';

const ATTEMPTS = 3;

export async function archiveJourney(workspace: string, journeyId: string, precondition: VersionPrecondition): Promise<void> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const journey = await readJourneyItem(workspace, journeyId);
    assertArchivable(journey, precondition);
    if (await writeArchive(workspace, journey)) return;
  }
  throw new ConflictError('version_conflict', 'The journey kept changing while archiving it; try again');
}
