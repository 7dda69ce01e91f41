/**
 * Access patterns of one survey response (items in lib/surveys/responses/record.ts):
 *   submit     one transaction: the survey's collecting check (collecting.ts, on one of the survey's
 *              copies), the response, its respondent index items and its counter shard, plus the
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
 * (ReturnValuesOnConditionCheckFailure), which tells 404 from 409 without another read.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../../platform/data/batch.ts';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { createOnce, type IdempotentRequest } from '../../../platform/data/idempotency.ts';
import { keys } from '../../../platform/data/keys.ts';
import { type NamedWrites, TransactionCancelledError, type TransactWrite, transact } from '../../../platform/data/transact.ts';
import { update } from '../../../platform/data/update.ts';
import { responseNotFound } from '../../errors.ts';
import { COUNTER_ENTITY, type CounterDeltas, counterShardOf, countMoves, legacyCounterShardOf } from '../counters.ts';
import { responseLayout } from '../layout.ts';
import { isLegacyResponseKey } from '../legacy-layout.ts';
import { respondentIndexItem, responseItem, tombstoneItem, toResponse } from '../record.ts';
import type { SurveyResponse } from '../schemas.ts';

/** Tries of a continuation or delete that met the migration moving its response. */
export const MOVE_ATTEMPTS = 3;

/** The current item of a named write whose condition failed (undefined: it did not exist), or null when it did not fail. */
export function failedItem(error: unknown, name: string): { item: Record<string, unknown> | undefined } | null {
  if (!(error instanceof TransactionCancelledError) || !error.failed(name)) return null;
  return { item: error.current(name) ?? undefined };
}

/** The counter items' changes (counters.ts `countMoves`) as transaction parts, one per item. */
function counterWrites(workspace: string, surveyId: string, deltas: CounterDeltas): NamedWrites {
  const writes: NamedWrites = {};
  for (const [shard, changes] of deltas) {
    const counts = update().set('entity', COUNTER_ENTITY).set('surveyId', surveyId);
    for (const [attribute, delta] of changes) counts.add(attribute, delta);
    writes[`counter ${shard}`] = {
      Update: { TableName: tableName, Key: keys.surveyResponseCounter(workspace, surveyId, shard), ...counts.build() },
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
 * validated against, collecting.ts), the response, its respondent index items, its counter shard and
 * the Idempotency-Key record. Throws `TransactionCancelledError` naming `survey` when the check failed.
 */
export function writeNewResponse(
  workspace: string,
  check: TransactWrite,
  response: SurveyResponse,
  hashes: string[],
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: SurveyResponse; replayed: boolean }> {
  const { surveyId } = response;
  const writes: NamedWrites = {
    survey: check,
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
  return createOnce(workspace, writes, response, idempotency);
}

/**
 * The response's item where it is stored (404 when nowhere): its key, and until migration 002 has
 * finished also its legacy key, in one BatchGetItem (with the migration's record when it is due).
 */
export async function readResponseItem(workspace: string, surveyId: string, responseId: string): Promise<Record<string, unknown>> {
  const current = keys.surveyResponse(workspace, surveyId, responseId);
  if (!responseLayout.pending) {
    const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: current, ConsistentRead: true }));
    if (!Item) throw responseNotFound();
    return Item;
  }
  for (let attempt = 1; ; attempt++) {
    const probe = responseLayout.due();
    const [item, legacy, record] = await getMany([
      current,
      keys.legacySurveyResponse(workspace, surveyId, responseId),
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

/**
 * Writes a continuation of the response `item` (as read) in one transaction: `check` (the survey still
 * collects, collecting.ts), `next` in place of the partial response as read, and its count moved. A
 * response still in the legacy layout moves to its new key in the same transaction. Throws
 * `TransactionCancelledError` naming `survey`, `response` or `legacy` when one of them changed since.
 */
export function writeContinuation(
  workspace: string,
  item: Record<string, unknown>,
  next: SurveyResponse,
  check: TransactWrite,
): Promise<void> {
  const current = toResponse(item);
  const legacy = inLegacyLayout(item);
  const asRead = {
    ConditionExpression: 'revision = :revision AND #status = :partial',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':revision': current.revision, ':partial': 'partial' },
  };
  const hashes = (item.respondentIndex as string[] | undefined) ?? [];
  return transact({
    survey: check,
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
  });
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
    { Delete: { TableName: tableName, Key: keys.surveyRespondent(workspace, hash, response.surveyId, response.id) } },
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
 * tombstone. Throws `TransactionCancelledError` naming `response` when it changed since the read.
 */
export function deleteResponseItem(workspace: string, item: Record<string, unknown>, deletedAt = new Date().toISOString()): Promise<void> {
  return transact(removalWrites(workspace, item, deletedAt));
}
