/** POST micro-journeys: a micro journey zooming into a stage of its parent, with its first draft; the parent must be active. */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import type { MicroJourneyCreation } from '../schemas.ts';
import { newJourney, titlesOf } from './create-journey.ts';

export function createMicroJourney(
  workspace: string,
  parentJourneyId: string,
  body: MicroJourneyCreation,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
) {
  return newJourney(workspace, { kind: 'micro', ...titlesOf(body), parentJourneyId, stageId: body.stageId ?? null }, keyId, idempotency);
}
