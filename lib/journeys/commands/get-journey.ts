/** GET a journey: one GetItem, strongly consistent; 404 when the workspace has no such journey. */
import type { Journey } from '../schemas.ts';
import { getJourney as readJourney } from '../store/journeys.ts';

export function getJourney(workspace: string, journeyId: string): Promise<Journey> {
  return readJourney(workspace, journeyId);
}
