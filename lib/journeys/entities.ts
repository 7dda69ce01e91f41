/**
 * The items of journeys (lib/platform/data/entity.ts). A journey is `JOURNEY#<id>` and its versions
 * follow it at `JOURNEY#<id>#V#<version key>` (the version id's hex digits complemented, so newest
 * first in ascending order): one Query of the `JOURNEY#<id>` prefix reads the journey, then its
 * versions. Active journeys are also listed in gsi1 under `WS#<slug>#JOURNEYS` by id (UUIDv7: by
 * creation); the counter's `J$COUNT` sorts after every `J#<id>`, so a descending Query returns it first.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { keys } from '../platform/data/keys.ts';

const journeyEntity = defineEntity({
  name: 'Journey',
  keys: { journey: keys.journey, listing: keys.journeyListing, listingPk: keys.journeyListingPk },
  // GET /journeys reads the journey record from gsi1 (record.ts `toJourney`); `entity` lets its
  // `kind` filter keep the counter.
  indexAttributes: [
    'entity',
    'id',
    'kind',
    'titleEn',
    'titleAr',
    'parentJourneyId',
    'stageId',
    'publishedVersionId',
    'versionCount',
    'version',
    'createdAt',
    'updatedAt',
    'archivedAt',
  ],
});

/** The workspace's counts of macro and micro journeys, read from gsi1 at the head of the list. */
const journeyCounterEntity = defineEntity({
  name: 'JourneyCounter',
  keys: { counter: keys.journeyCounter, listing: keys.journeyCounterListing },
  indexAttributes: ['entity', 'macroCount', 'microCount'],
});

export const JOURNEY_ENTITIES = [journeyEntity, journeyCounterEntity] as const;
