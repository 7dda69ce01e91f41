/** POST micro-journeys: a micro journey zooming into a stage of its parent, with its first draft; the parent must be active. */
import type { IdempotentRequest } from '../../platform/data/idempotency.ts';
import type { MicroJourneyCreation } from '../schemas.ts';
import { createJourney as insertJourney, type JourneyCreation } from '../store/journeys.ts';
import { type CreatedJourney, titlesOf } from './create-journey.ts';

export function createMicroJourney(
  workspace: string,
  parentJourneyId: string,
  body: MicroJourneyCreation,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: CreatedJourney; replayed: boolean }> {
  const creation: JourneyCreation = { kind: 'micro', ...titlesOf(body), parentJourneyId, stageId: body.stageId ?? null };
  return insertJourney(workspace, creation, keyId, idempotency);
}
