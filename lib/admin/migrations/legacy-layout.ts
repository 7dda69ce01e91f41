/**
 * The survey-response layout from before migration 002 (002-survey-response-shards.ts), which only
 * that migration still knows: every response of a survey in one ascending range
 * `SURVEYRESPONSE#<survey>#<id>`, counted in one of 16 counters by the first byte of SHA-256 of its id,
 * its change-feed entry under one key `WS#<slug>#SURVEYRESPONSES#<survey>`, and the aggregator's
 * markers at `SURVEYCOUNTED#<survey>#<id>`. The release reads none of it (lib/platform/data/release-gate.ts).
 */
import { createHash } from 'node:crypto';
import { workspacePk } from '../../platform/data/keys.ts';
import { surveyResponseEntity } from '../../surveys/responses/entities.ts';
import { countedMarkerEntity } from '../../surveys/summary/entities.ts';

export const RESPONSE_LAYOUT_MIGRATION_ID = '002-survey-response-shards';

type Item = Record<string, unknown>;

/** Keys of the layout before the migration. */
export const legacyKeys = {
  response: (workspace: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(workspace),
    sk: `SURVEYRESPONSE#${surveyId}#${responseId}`,
  }),
  responsePrefix: (surveyId: string) => `SURVEYRESPONSE#${surveyId}#`,
  /** Inclusive bounds of the one range of a survey's responses, without the counters that follow it. */
  responseRange: (surveyId: string) => ({ from: `SURVEYRESPONSE#${surveyId}#`, to: `SURVEYRESPONSE#${surveyId}#~` }),
  marker: (workspace: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(workspace),
    sk: `SURVEYCOUNTED#${surveyId}#${responseId}`,
  }),
};

/** The counter a response in the layout before was counted in. */
export function legacyCounterShardOf(responseId: string): number {
  return (createHash('sha256').update(responseId).digest()[0] as number) % 16;
}

/** Whether a stored response item is in the layout before the migration (its sort key says so). */
export const isLegacyResponseKey = (sk: string) => sk.startsWith('SURVEYRESPONSE#') && !sk.includes('$COUNT#');

/** Whether a marker item is at its key of the layout before (`SURVEYCOUNTED#<survey>#<id>`: no hash segment). */
export const isLegacyMarkerKey = (sk: string) => sk.split('#').length === 3;

/**
 * A response item of the layout before as the current layout stores it (same attributes, revision and
 * times). `movedFromStatus` lets a stream reader tell the move from a new response (lib/surveys/stream.ts).
 */
export function movedResponseItem(before: Item): Item {
  const workspace = before.workspace as string;
  const surveyId = before.surveyId as string;
  const id = before.id as string;
  return {
    ...before,
    ...surveyResponseEntity.keys.response(workspace, surveyId, id),
    ...surveyResponseEntity.keys.feed(workspace, surveyId, before.updatedAt as string, id),
    movedFromStatus: before.status,
  };
}

/** A marker item of the layout before, at its current key. */
export function movedMarkerItem(before: Item): Item {
  return {
    ...before,
    ...countedMarkerEntity.keys.marker(before.workspace as string, before.surveyId as string, before.responseId as string),
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
