/**
 * The items of survey responses (lib/platform/data/entity.ts), apart from record.ts so the stream
 * readers (lib/surveys/stream.ts) can recognise one without bundling the record mapping, the keyed
 * hash and their imports.
 *
 * Machines write these (every submit, continue and aggregator fold), so none of their ranges may take
 * every write at its end: DynamoDB serves 1,000 write units a second per partition and does not split a
 * range written in ascending order (DynamoDB paper, USENIX ATC 2022 §4.4). The arithmetic behind each
 * count is in docs/survey-responses.md.
 *   SURVEYRESP#<survey>#<shard>#<id>   a response, in one of 64 ranges by a stable hash of its id: the
 *                                      list merges the ranges (ids are UUIDv7, so each range sorts by creation)
 *   SURVEYRESPONSE#<survey>$COUNT#<nn> the per-(version, status) counters, one item per range
 *   SURVEYSTATE#<survey>#<nn>          copies of the survey's collecting state (../entities.ts)
 *   SURVEYRESPONSETOMB#<survey>#<id>   what the change feed keeps of a deleted response (TTL 30 days)
 *   SURVEYRESPONDENT#<hash>#<survey>#<id>  a respondent's responses, by a keyed hash, never the identifier
 * The change feed reads gsi1 in order of change, under 16 partition keys per survey
 * (`WS#<slug>#SURVEYRESPONSES#<survey>#<nn>`), merged by the reader.
 * The layout before migration 002 (lib/admin/migrations/) kept every response in one ascending range
 * `SURVEYRESPONSE#<survey>#<id>` and the feed under one key: `legacy…` names those, read until the
 * migration has finished and by the migration itself.
 */
import { defineEntity } from '../../platform/data/entity.ts';
import { shardOf, workspacePk } from '../../platform/data/keys.ts';

/**
 * Shard counts of the survey-response keys, from the target of 5,000 finished 4 KB submits a second to
 * one survey (docs/survey-responses.md has the arithmetic): 8 write units each (4 KB, twice in a
 * transaction) is 40,000 a second, so at least 40 ranges of 1,000; 64 leaves 1.6× headroom.
 */
export const SURVEY_RESPONSE_SHARDS = 64;
/** The change feed's index entries: 1 unit per write, 5 per partial → continue → finish flow (2,000 a second). */
export const SURVEY_RESPONSE_FEED_SHARDS = 16;

export const surveyResponseShardOf = (responseId: string) => shardOf(responseId, SURVEY_RESPONSE_SHARDS);
const shardPrefix = (surveyId: string, shard: number) => `SURVEYRESP#${surveyId}#${String(shard).padStart(2, '0')}#`;
const feedPk = (workspace: string, surveyId: string, shard: number) =>
  `WS#${workspace}#SURVEYRESPONSES#${surveyId}#${String(shard).padStart(2, '0')}`;

/** The response id at the end of a response's sort key, in either layout. */
export const responseIdOfKey = (sk: string) => sk.slice(sk.lastIndexOf('#') + 1);

export const surveyResponseEntity = defineEntity({
  name: 'SurveyResponse',
  keys: {
    response: (workspace: string, surveyId: string, responseId: string) => ({
      pk: workspacePk(workspace),
      sk: `${shardPrefix(surveyId, surveyResponseShardOf(responseId))}${responseId}`,
    }),
    /** What every range of the survey's responses starts with (a walk of all of them, in range order, not time order). */
    prefix: (surveyId: string) => `SURVEYRESP#${surveyId}#`,
    /** Inclusive `sk BETWEEN` bounds of one range of a survey's responses ('~' sorts after every id character). */
    shardRange: (surveyId: string, shard: number) => ({ from: shardPrefix(surveyId, shard), to: `${shardPrefix(surveyId, shard)}~` }),
    feed: (workspace: string, surveyId: string, changedAt: string, responseId: string) => ({
      gsi1pk: feedPk(workspace, surveyId, surveyResponseShardOf(responseId) % SURVEY_RESPONSE_FEED_SHARDS),
      gsi1sk: `${changedAt}#${responseId}`,
    }),
    feedPk,
    legacy: (workspace: string, surveyId: string, responseId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYRESPONSE#${surveyId}#${responseId}`,
    }),
    legacyPrefix: (surveyId: string) => `SURVEYRESPONSE#${surveyId}#`,
    /** Inclusive bounds of the legacy range, without the counters that follow it. */
    legacyRange: (surveyId: string) => ({ from: `SURVEYRESPONSE#${surveyId}#`, to: `SURVEYRESPONSE#${surveyId}#~` }),
    legacyFeedPk: (workspace: string, surveyId: string) => `WS#${workspace}#SURVEYRESPONSES#${surveyId}`,
  },
});

export const responseCounterEntity = defineEntity({
  name: 'SurveyResponseCounter',
  keys: {
    counter: (workspace: string, surveyId: string, shard: number) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYRESPONSE#${surveyId}$COUNT#${String(shard).padStart(2, '0')}`,
    }),
    prefix: (surveyId: string) => `SURVEYRESPONSE#${surveyId}$COUNT#`,
  },
});

export const responseTombstoneEntity = defineEntity({
  name: 'SurveyResponseTombstone',
  keys: {
    tombstone: (workspace: string, surveyId: string, responseId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYRESPONSETOMB#${surveyId}#${responseId}`,
    }),
  },
});

export const respondentEntity = defineEntity({
  name: 'SurveyRespondent',
  keys: {
    respondent: (workspace: string, respondentHash: string, surveyId: string, responseId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYRESPONDENT#${respondentHash}#${surveyId}#${responseId}`,
    }),
    prefix: (respondentHash: string, surveyId?: string) => `SURVEYRESPONDENT#${respondentHash}#${surveyId ? `${surveyId}#` : ''}`,
  },
});
