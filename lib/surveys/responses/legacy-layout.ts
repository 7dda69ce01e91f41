import { countedMarkerEntity } from '../summary/entities.ts';
import { surveyResponseEntity } from './entities.ts';

export const RESPONSE_LAYOUT_MIGRATION_ID = '002-survey-response-shards';

type Item = Record<string, unknown>;

/** Whether a stored response item is in the layout before the migration (its sort key says so). */
export const isLegacyResponseKey = (sk: string) => sk.startsWith('SURVEYRESPONSE#') && !sk.includes('$COUNT#');

/** Whether a marker item is at its legacy key (`SURVEYCOUNTED#<survey>#<id>`: no hash segment). */
export const isLegacyMarkerKey = (sk: string) => sk.split('#').length === 3;

/** A legacy response item as the current layout stores it (same attributes, revision and times). */
export function movedResponseItem(legacy: Item): Item {
  const workspace = legacy.workspace as string;
  const surveyId = legacy.surveyId as string;
  const id = legacy.id as string;
  return {
    ...legacy,
    ...surveyResponseEntity.keys.response(workspace, surveyId, id),
    ...surveyResponseEntity.keys.feed(workspace, surveyId, legacy.updatedAt as string, id),
    movedFromStatus: legacy.status,
  };
}

/** A legacy marker item at its current key. */
export function movedMarkerItem(legacy: Item): Item {
  return {
    ...legacy,
    ...countedMarkerEntity.keys.marker(legacy.workspace as string, legacy.surveyId as string, legacy.responseId as string),
  };
}

/** The feed key a tombstone's entry belongs under now, or null when it is there already. */
export function tombstoneFeedKey(tombstone: Item): string | null {
  const { gsi1pk } = surveyResponseEntity.keys.feed(
    tombstone.workspace as string,
    tombstone.surveyId as string,
    '',
    tombstone.id as string,
  );
  return tombstone.gsi1pk === gsi1pk ? null : gsi1pk;
}
