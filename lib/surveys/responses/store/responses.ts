/**
 * Access patterns of one survey response (items in lib/surveys/responses/record.ts):
 *   submit     one transaction: the survey's collecting check (on one of the survey's copies, or on
 *              the survey item while collecting.ts says its copies are incomplete), the response, its respondent index items and its counter shard, plus the
 *              Idempotency-Key record; a warm instance reads nothing first (a cold one reads the survey
 *              and the version: 3 round trips; ../commands/submit-response.ts decides and retries)
 *   continue   reads the response, then one transaction conditional on its revision and on the
 *              survey still collecting: 2 (../commands/continue-response.ts decides, and reads again on a move)
 *   read       GetItem: 1
 *   delete     reads the response, then one transaction that deletes it and its index items, moves
 *              its counter and leaves a tombstone: 2 (../commands/delete-response.ts reads again on a race)
 * Until migration 002 has finished on the table (layout.ts), a response is read by both its keys in one
 * BatchGetItem, and a continuation of one still in the legacy layout moves it to the new one in the same
 * transaction (a delete removes it where it is). A failed condition returns the current item
 * (ReturnValuesOnConditionCheckFailure), which tells 404 from 409 without another read: a write answers
 * with it (`surveyChanged`, `responseChanged`) for the command to decide on.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../../platform/data/batch.ts';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { createOnce, type IdempotentRequest } from '../../../platform/data/idempotency.ts';
import { failedCondition, type NamedWrites, type TransactWrite, transact } from '../../../platform/data/transact.ts';
import { update } from '../../../platform/data/update.ts';
import { rulesDigest } from '../../collecting-state.ts';
import type { TargetingRules } from '../../engine/targeting.ts';
import { surveyEntity } from '../../entities.ts';
import { responseNotFound } from '../../errors.ts';
import { copyKey } from '../../store/collecting-copies.ts';
import type { SurveyChanged } from '../../store/surveys.ts';
import { COUNTER_ENTITY, type CounterDeltas, counterShardOf, countMoves, legacyCounterShardOf } from '../counters.ts';
import { respondentEntity, responseCounterEntity, surveyResponseEntity } from '../entities.ts';
import { isLegacyResponseKey } from '../legacy-layout.ts';
import { respondentIndexItem, responseItem, tombstoneItem, toResponse } from '../record.ts';
import type { SurveyResponse } from '../schemas.ts';
import { responseLayout } from './layout.ts';

/** Tries of a continuation or delete that met the migration moving its response. */
export const MOVE_ATTEMPTS = 3;

/** Which item a response write's survey check reads: one of the survey's collecting copies, or the survey item itself. */
export type CheckedItem = 'copy' | 'survey';

/**
 * What a response write holds its survey to (responses/collecting.ts decides): that it still collects,
 * read `on` the copy the response id hashes to (store/collecting-copies.ts) or on the survey item; for a
 * new response also the state it was validated against (published version, targeting rules, and on the
 * survey item its version, which any change moves).
 */
export interface SurveyCheck {
  on: CheckedItem;
  validatedAgainst?: { publishedVersionId: string; targetingRules: TargetingRules | null; surveyVersion: number };
}

/** The transaction part of `check` for the response `responseId` of the survey. */
function surveyCheckWrite(workspace: string, surveyId: string, responseId: string, check: SurveyCheck): TransactWrite {
  const state = check.validatedAgainst;
  const conditions = ['#status = :published'];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':published': 'published' };
  if (state) {
    conditions.push('publishedVersionId = :versionId');
    values[':versionId'] = state.publishedVersionId;
    if (check.on === 'survey') {
      conditions.push('#version = :surveyVersion');
      names['#version'] = 'version';
      values[':surveyVersion'] = state.surveyVersion;
    } else {
      conditions.push('rulesDigest = :rules');
      values[':rules'] = rulesDigest(state.targetingRules);
    }
  }
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: check.on === 'survey' ? surveyEntity.keys.survey(workspace, surveyId) : copyKey(workspace, surveyId, responseId),
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The counter items' changes (counters.ts `countMoves`) as transaction parts, one per item. */
function counterWrites(workspace: string, surveyId: string, deltas: CounterDeltas): NamedWrites {
  const writes: NamedWrites = {};
  for (const [shard, changes] of deltas) {
    const counts = update().set('entity', COUNTER_ENTITY).set('surveyId', surveyId);
    for (const [attribute, delta] of changes) counts.add(attribute, delta);
    writes[`counter ${shard}`] = {
      Update: { TableName: tableName, Key: responseCounterEntity.keys.counter(workspace, surveyId, shard), ...counts.build() },
    };
  }
  return writes;
}

/** The counter a stored response is counted in: its range's, or the legacy rule's while it is in the legacy layout. */
function counterOf(item: Record<string, unknown>): number {
  return inLegacyLayout(item) ? legacyCounterShardOf(item.id as string) : counterShardOf(item.id as string);
}

/**
 * Stores a new response in one transaction: `check` (the survey still collects as the response was
 * validated against), the response, its respondent index items, its counter shard and the
 * Idempotency-Key record. A failed check answers with the item it read.
 */
export async function writeNewResponse(
  workspace: string,
  check: SurveyCheck,
  response: SurveyResponse,
  hashes: string[],
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: SurveyResponse; replayed: boolean } | SurveyChanged> {
  const { surveyId } = response;
  const writes: NamedWrites = {
    survey: surveyCheckWrite(workspace, surveyId, response.id, check),
    response: {
      Put: { TableName: tableName, Item: responseItem(workspace, response, hashes), ConditionExpression: 'attribute_not_exists(pk)' },
    },
    ...Object.fromEntries(
      hashes.map((hash, i) => [
        `respondent${i}`,
        { Put: { TableName: tableName, Item: respondentIndexItem(workspace, hash, surveyId, response.id) } },
      ]),
    ),
    ...counterWrites(
      workspace,
      surveyId,
      countMoves(response.versionId, null, { shard: counterShardOf(response.id), status: response.status }),
    ),
  };
  try {
    return await createOnce(workspace, writes, response, idempotency);
  } catch (error) {
    const changed = failedCondition(error, 'survey');
    if (!changed) throw error;
    return { surveyChanged: changed.current };
  }
}

/**
 * The response's item where it is stored (404 when nowhere): its key, and until migration 002 has
 * finished also its legacy key, in one BatchGetItem (with the migration's record when it is due).
 */
export async function readResponseItem(workspace: string, surveyId: string, responseId: string): Promise<Record<string, unknown>> {
  const current = surveyResponseEntity.keys.response(workspace, surveyId, responseId);
  if (!responseLayout.pending) {
    const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: current, ConsistentRead: true }));
    if (!Item) throw responseNotFound();
    return Item;
  }
  for (let attempt = 1; ; attempt++) {
    const probe = responseLayout.due();
    const [item, legacy, record] = await getMany([
      current,
      surveyResponseEntity.keys.legacy(workspace, surveyId, responseId),
      ...(probe ? [probe] : []),
    ]);
    if (probe) responseLayout.settle(record);
    const found = item ?? legacy;
    if (found) return found;
    // The two keys are read side by side, not at one instant: a move between them can hide the response once.
    if (attempt >= 2 || !responseLayout.pending) throw responseNotFound();
  }
}

export async function getResponse(workspace: string, surveyId: string, responseId: string): Promise<SurveyResponse> {
  return toResponse(await readResponseItem(workspace, surveyId, responseId));
}

/** Whether a stored response item is still at its key of the layout before migration 002 (layout.ts). */
export function inLegacyLayout(item: Record<string, unknown>): boolean {
  return isLegacyResponseKey(item.sk as string);
}

/** How a continuation's write ended: written, or refused by the survey's check or by the response changed since the read (each as it stands). */
export type ContinuationWrite = { written: true } | SurveyChanged | { responseChanged: Record<string, unknown> | undefined };

/**
 * Writes a continuation of the response `item` (as read) in one transaction: `check` (the survey still
 * collects), `next` in place of the partial response as read, and its count moved. A response still in
 * the legacy layout moves to its new key in the same transaction (either key changed since the read
 * answers `responseChanged`).
 */
export async function writeContinuation(
  workspace: string,
  item: Record<string, unknown>,
  next: SurveyResponse,
  check: SurveyCheck,
): Promise<ContinuationWrite> {
  const current = toResponse(item);
  const legacy = inLegacyLayout(item);
  const asRead = {
    ConditionExpression: 'revision = :revision AND #status = :partial',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':revision': current.revision, ':partial': 'partial' },
  };
  const hashes = (item.respondentIndex as string[] | undefined) ?? [];
  const writes: NamedWrites = {
    survey: surveyCheckWrite(workspace, current.surveyId, current.id, check),
    response: legacy
      ? {
          Put: {
            TableName: tableName,
            Item: responseItem(workspace, next, hashes, current.status),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        }
      : { Put: { TableName: tableName, Item: responseItem(workspace, next, hashes), ...asRead } },
    legacy: legacy && { Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk }, ...asRead } },
    // Its count moves with it: from the counter it was counted in to its range's (counters.ts).
    ...counterWrites(
      workspace,
      current.surveyId,
      countMoves(
        current.versionId,
        { shard: counterOf(item), status: 'partial' },
        { shard: counterShardOf(current.id), status: next.status },
      ),
    ),
  };
  try {
    await transact(writes);
    return { written: true };
  } catch (error) {
    const survey = failedCondition(error, 'survey');
    if (survey) return { surveyChanged: survey.current };
    const response = failedCondition(error, 'response') ?? failedCondition(error, 'legacy');
    if (response) return { responseChanged: response.current };
    throw error;
  }
}

/**
 * The writes that remove a response (as read, so a continuation in between fails the `response`
 * condition) with its respondent index items, and leave its tombstone for the change feed.
 */
function removalWrites(workspace: string, item: Record<string, unknown>, deletedAt: string): NamedWrites {
  const response = toResponse(item);
  const hashes = (item.respondentIndex as string[] | undefined) ?? [];
  const indexDeletes = hashes.map((hash, i) => [
    `respondent${i}`,
    { Delete: { TableName: tableName, Key: respondentEntity.keys.respondent(workspace, hash, response.surveyId, response.id) } },
  ]);
  return {
    response: {
      Delete: {
        TableName: tableName,
        // Where it is stored: its key, or its legacy key while migration 002 has not moved it.
        Key: { pk: item.pk, sk: item.sk },
        ConditionExpression: 'revision = :revision',
        ExpressionAttributeValues: { ':revision': response.revision },
      },
    },
    ...Object.fromEntries(indexDeletes),
    tombstone: { Put: { TableName: tableName, Item: tombstoneItem(workspace, response.surveyId, response.id, deletedAt) } },
    ...counterWrites(
      workspace,
      response.surveyId,
      countMoves(response.versionId, { shard: counterOf(item), status: response.status }, null),
    ),
  };
}

/**
 * Deletes the response as read (of an archived survey too): the summary forgets it, the feed shows a
 * tombstone. False when the response changed since the read (continued, or moved by migration 002).
 */
export async function deleteResponseItem(
  workspace: string,
  item: Record<string, unknown>,
  deletedAt = new Date().toISOString(),
): Promise<boolean> {
  try {
    await transact(removalWrites(workspace, item, deletedAt));
    return true;
  } catch (error) {
    if (failedCondition(error, 'response')) return false;
    throw error;
  }
}
