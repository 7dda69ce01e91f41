/**
 * Access patterns of one survey response (items in lib/surveys/responses/record.ts):
 *   submit     one transaction: the survey's collecting check (on one of the survey's copies), the
 *              response, its respondent index items and its counter shard, plus the
 *              Idempotency-Key record; a warm instance reads nothing first (a cold one reads the survey
 *              and the version: 3 round trips; ../commands/submit-response.ts decides and retries)
 *   continue   reads the response, then one transaction conditional on its revision and on the
 *              survey still collecting: 2 (../commands/continue-response.ts decides)
 *   read       GetItem: 1
 *   delete     reads the response, then one transaction that deletes it and its index items, moves
 *              its counter and leaves a tombstone: 2 (../commands/delete-response.ts reads again on a race)
 * A failed condition returns the current item (ReturnValuesOnConditionCheckFailure), which tells 404
 * from 409 without another read: a write answers with it (`surveyChanged`, `responseChanged`) for the command to decide on.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { createOnce, type IdempotentRequest } from '../../../platform/data/idempotency.ts';
import { failedCondition, type NamedWrites, type TransactWrite, transact } from '../../../platform/data/transact.ts';
import { update } from '../../../platform/data/update.ts';
import { rulesDigest } from '../../collecting-state.ts';
import type { TargetingRules } from '../../engine/targeting.ts';
import { responseNotFound } from '../../errors.ts';
import { copyKey } from '../../store/collecting-copies.ts';
import type { SurveyChanged } from '../../store/surveys.ts';
import { type CounterDeltas, counterShardOf, countMoves } from '../counters.ts';
import { respondentEntity, responseCounterEntity, surveyResponseEntity } from '../entities.ts';
import { respondentIndexItem, responseItem, tombstoneItem, toResponse } from '../record.ts';
import type { SurveyResponse } from '../schemas.ts';

/** The survey's state a new response was validated against (responses/collecting.ts decides): its published version and targeting rules. */
export interface ValidatedAgainst {
  publishedVersionId: string;
  targetingRules: TargetingRules | null;
}

/**
 * The transaction part that holds a response write to its survey, on the collecting copy the response
 * id hashes to (store/collecting-copies.ts): that it still collects, and for a new response that it is
 * still as `validatedAgainst`.
 */
function surveyCheckWrite(workspace: string, surveyId: string, responseId: string, validatedAgainst?: ValidatedAgainst): TransactWrite {
  const conditions = ['#status = :published'];
  const values: Record<string, unknown> = { ':published': 'published' };
  if (validatedAgainst) {
    conditions.push('publishedVersionId = :versionId', 'rulesDigest = :rules');
    values[':versionId'] = validatedAgainst.publishedVersionId;
    values[':rules'] = rulesDigest(validatedAgainst.targetingRules);
  }
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: copyKey(workspace, surveyId, responseId),
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
    },
  };
}

/** The counter items' changes (counters.ts `countMoves`) as transaction parts, one per item. */
function counterWrites(workspace: string, surveyId: string, deltas: CounterDeltas): NamedWrites {
  const writes: NamedWrites = {};
  for (const [shard, changes] of deltas) {
    const counts = update().set('entity', responseCounterEntity.name).set('surveyId', surveyId);
    for (const [attribute, delta] of changes) counts.add(attribute, delta);
    writes[`counter ${shard}`] = {
      Update: { TableName: tableName, Key: responseCounterEntity.keys.counter(workspace, surveyId, shard), ...counts.build() },
    };
  }
  return writes;
}

/**
 * Stores a new response in one transaction: the survey's check (it still collects as the response was
 * `validatedAgainst`), the response, its respondent index items, its counter shard and the
 * Idempotency-Key record. A failed check answers with the item it read.
 */
export async function writeNewResponse(
  workspace: string,
  validatedAgainst: ValidatedAgainst,
  response: SurveyResponse,
  hashes: string[],
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: SurveyResponse; replayed: boolean } | SurveyChanged> {
  const { surveyId } = response;
  const writes: NamedWrites = {
    survey: surveyCheckWrite(workspace, surveyId, response.id, validatedAgainst),
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

/** The response's stored item (404 when there is none): one GetItem. */
export async function readResponseItem(workspace: string, surveyId: string, responseId: string): Promise<Record<string, unknown>> {
  const Key = surveyResponseEntity.keys.response(workspace, surveyId, responseId);
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }));
  if (!Item) throw responseNotFound();
  return Item;
}

export async function getResponse(workspace: string, surveyId: string, responseId: string): Promise<SurveyResponse> {
  return toResponse(await readResponseItem(workspace, surveyId, responseId));
}

/** How a continuation's write ended: written, or refused by the survey's check or by the response changed since the read (each as it stands). */
export type ContinuationWrite = { written: true } | SurveyChanged | { responseChanged: Record<string, unknown> | undefined };

/**
 * Writes a continuation of the response `item` (as read) in one transaction: the survey's check (it
 * still collects), `next` in place of the partial response as read, and its count moved (changed since the
 * read: `responseChanged`).
 */
export async function writeContinuation(
  workspace: string,
  item: Record<string, unknown>,
  next: SurveyResponse,
): Promise<ContinuationWrite> {
  const current = toResponse(item);
  const asRead = {
    ConditionExpression: 'revision = :revision AND #status = :partial',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':revision': current.revision, ':partial': 'partial' },
  };
  const hashes = (item.respondentIndex as string[] | undefined) ?? [];
  const writes: NamedWrites = {
    survey: surveyCheckWrite(workspace, current.surveyId, current.id),
    response: { Put: { TableName: tableName, Item: responseItem(workspace, next, hashes), ...asRead } },
    // Its count moves with its status (counters.ts).
    ...counterWrites(
      workspace,
      current.surveyId,
      countMoves(
        current.versionId,
        { shard: counterShardOf(current.id), status: 'partial' },
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
    const response = failedCondition(error, 'response');
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
      countMoves(response.versionId, { shard: counterShardOf(response.id), status: response.status }, null),
    ),
  };
}

/**
 * Deletes the response as read (of an archived survey too): the summary forgets it, the feed shows a
 * tombstone. False when the response changed since the read (continued meanwhile).
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
