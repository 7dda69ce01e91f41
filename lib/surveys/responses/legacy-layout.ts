/**
 * The survey-response layout before migration 002 and how an item of it moves to the current one
 * (keys.ts): pure, so the handlers, the stream readers and the operator's migration
 * (lib/admin/migrations/) all move an item the same way.
 *   a response   `SURVEYRESPONSE#<survey>#<id>` with its feed entry under one key → one of 64 ranges,
 *                its feed entry under one of 16 keys; `movedFromStatus` says it moved (and from what)
 *   a marker     `SURVEYCOUNTED#<survey>#<id>` → `SURVEYCOUNTED#<survey>#<hash>#<id>`
 *   a tombstone  stays where it is; its feed entry moves under one of the 16 feed keys
 */
import { keys } from '../../platform/data/keys.ts';

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
    ...keys.surveyResponse(workspace, surveyId, id),
    ...keys.surveyResponseFeed(workspace, surveyId, legacy.updatedAt as string, id),
    movedFromStatus: legacy.status,
  };
}

/** A legacy marker item at its current key. */
export function movedMarkerItem(legacy: Item): Item {
  return { ...legacy, ...keys.surveyResponseCounted(legacy.workspace as string, legacy.surveyId as string, legacy.responseId as string) };
}

/** The feed key a tombstone's entry belongs under now, or null when it is there already. */
export function tombstoneFeedKey(tombstone: Item): string | null {
  const { gsi1pk } = keys.surveyResponseFeed(tombstone.workspace as string, tombstone.surveyId as string, '', tombstone.id as string);
  return tombstone.gsi1pk === gsi1pk ? null : gsi1pk;
}
