/**
 * PATCH titles: one conditional write with no read before it; when its condition fails, the rules
 * say why from the journey as it stood. A change of nothing answers the journey as it is, after
 * the same checks a change would make (one read).
 */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { journeyArchived } from '../errors.ts';
import type { Journey, JourneyPatch } from '../schemas.ts';
import { titleChangeRefusal } from '../state-rules.ts';
import { getJourney, updateJourneyTitles } from '../store/journeys.ts';

export async function updateJourney(
  workspace: string,
  journeyId: string,
  body: JourneyPatch,
  precondition: VersionPrecondition,
): Promise<Journey> {
  const titles = { titleEn: body.titleEn !== undefined ? body.titleEn : body.title, titleAr: body.titleAr };
  if (titles.titleEn === undefined && titles.titleAr === undefined) {
    const journey = await getJourney(workspace, journeyId);
    if (journey.archivedAt) throw journeyArchived();
    if (!meetsPrecondition(precondition, journey.version)) throw new VersionConflictError(journey.version);
    return journey;
  }
  const { journey, refused } = await updateJourneyTitles(workspace, journeyId, titles, precondition);
  if (refused) throw titleChangeRefusal(refused.current, precondition);
  return journey;
}
