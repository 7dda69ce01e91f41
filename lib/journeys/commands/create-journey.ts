/** POST /journeys: a macro journey and its first draft, in one transaction; safe to retry with an Idempotency-Key. */
import type { IdempotentRequest } from '../../platform/data/idempotency.ts';
import type { MicroJourneyCreation } from '../schemas.ts';
import { createJourney as insertJourney, type JourneyCreation } from '../store/journeys.ts';

export type CreatedJourney = Awaited<ReturnType<typeof insertJourney>>['response'];

/** `title` is an alias of `titleEn`; a title not given is none. */
export function titlesOf(body: Pick<MicroJourneyCreation, 'title' | 'titleEn' | 'titleAr'>) {
  return { titleEn: body.titleEn ?? body.title ?? null, titleAr: body.titleAr ?? null };
}

export function createJourney(
  workspace: string,
  body: Pick<MicroJourneyCreation, 'title' | 'titleEn' | 'titleAr'>,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: CreatedJourney; replayed: boolean }> {
  const creation: JourneyCreation = { kind: 'macro', ...titlesOf(body), parentJourneyId: null, stageId: null };
  return insertJourney(workspace, creation, keyId, idempotency);
}
