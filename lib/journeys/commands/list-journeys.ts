/** One page of active journeys, newest first, with the total the `kind` filter selects (store/journey-list.ts). */
import type { PageStart } from '../../platform/pagination.ts';
import { type JourneyPage, readJourneyPage } from '../store/journey-list.ts';
import type { JourneyCreation } from '../store/journeys.ts';

export function listJourneys(workspace: string, start: PageStart, kind: JourneyCreation['kind'] | undefined): Promise<JourneyPage> {
  return readJourneyPage(workspace, { ...start, kind });
}
