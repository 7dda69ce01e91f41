/**
 * The items of journeys (lib/platform/data/entity.ts). A journey is `JOURNEY#<id>` and its versions
 * follow it at `JOURNEY#<id>#V#<version key>` (the version id's hex digits complemented, so newest
 * first in ascending order): one Query of the `JOURNEY#<id>` prefix reads the journey, then its
 * versions. Active journeys are also listed in gsi1 under `WS#<slug>#JOURNEYS` by id (UUIDv7: by
 * creation); the counter's `J$COUNT` sorts after every `J#<id>`, so a descending Query returns it first.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { workspacePk } from '../platform/data/keys.ts';
import { descendingIdKey } from './record.ts';

const journeyKey = (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `JOURNEY#${id}` });
const listingPk = (workspace: string) => `WS#${workspace}#JOURNEYS`;

export const journeyEntity = defineEntity({
  name: 'Journey',
  keys: {
    journey: journeyKey,
    listing: (workspace: string, id: string) => ({ gsi1pk: listingPk(workspace), gsi1sk: `J#${id}` }),
    listingPk,
  },
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

/** A version of a journey, right after it in its item collection, newest first. */
export const journeyVersionEntity = defineEntity({
  name: 'JourneyVersion',
  keys: {
    version: (workspace: string, journeyId: string, versionId: string) => ({
      pk: workspacePk(workspace),
      sk: `JOURNEY#${journeyId}#V#${descendingIdKey(versionId)}`,
    }),
    /** What every version of a journey starts with. */
    prefix: (journeyId: string) => `JOURNEY#${journeyId}#V#`,
  },
});

/** The workspace's counts of macro and micro journeys, read from gsi1 at the head of the list. */
export const journeyCounterEntity = defineEntity({
  name: 'JourneyCounter',
  keys: {
    counter: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'JOURNEYCOUNT' }),
    listing: (workspace: string) => ({ gsi1pk: listingPk(workspace), gsi1sk: 'J$COUNT' }),
  },
  indexAttributes: ['entity', 'macroCount', 'microCount'],
});

/**
 * Journey metrics bound to a survey (survey-bindings.ts): one item per survey and journey whose
 * published version binds its questions without pinning a version, written with that publish, so a
 * survey publish finds the journeys it would unbind with one Query of `SURVEYMETRIC#<surveyId>#`.
 */
export const journeyMetricBindingEntity = defineEntity({
  name: 'JourneyMetricBinding',
  keys: {
    binding: (workspace: string, surveyId: string, journeyId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYMETRIC#${surveyId}#${journeyId}`,
    }),
    prefix: (surveyId: string) => `SURVEYMETRIC#${surveyId}#`,
  },
});

export const JOURNEY_ENTITIES = [journeyEntity, journeyVersionEntity, journeyCounterEntity, journeyMetricBindingEntity] as const;
