/**
 * Access patterns of one survey response (items in lib/surveys/responses/record.ts):
 *   submit     one transaction: the survey check (collecting.ts), the response, its respondent index
 *              items and its counter shard, plus the Idempotency-Key record; a warm instance reads
 *              nothing first (a cold one reads the survey and the version: 3 round trips)
 *   continue   reads the response, then one transaction conditional on its revision and on the
 *              survey still collecting: 2
 *   read       GetItem: 1
 *   delete     reads the response, then one transaction that deletes it and its index items, moves
 *              its counter and leaves a tombstone: 2
 * A failed condition returns the current item (ReturnValuesOnConditionCheckFailure), which tells
 * 404 from 409 without another read.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { type NamedWrites, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { BadRequestError, ConflictError, NotFoundError, VersionConflictError } from '../../platform/errors.ts';
import { surveyNotFound } from '../store.ts';
import {
  type CollectingSurvey,
  collectingCheck,
  collectingSurvey,
  refreshFromCheck,
  stillCollectingCheck,
  surveyNotCollecting,
  versionDefinition,
} from './collecting.ts';
import {
  COUNTER_ENTITY,
  counterAttribute,
  counterShardOf,
  newResponseId,
  respondentHash,
  respondentIndexItem,
  responseItem,
  tombstoneItem,
  toResponse,
} from './record.ts';
import { assertAnswersFit, assertTargeted, mergeAnswers, replayedOrThrow, secondsBetween } from './rules.ts';
import type { ContinueResponseBody, SubmitResponseBody, SurveyResponse } from './schemas.ts';

/** Tries of a submit whose cached survey state turned out stale (each one learns the current state). */
const SUBMIT_ATTEMPTS = 3;

function responseNotFound(): NotFoundError {
  return new NotFoundError('not_found', 'No response with this id in this survey');
}
function responseFinished(): ConflictError {
  return new ConflictError('response_finished', 'The response is finished and can no longer change');
}

/** The current item of a named write whose condition failed (undefined: it did not exist), or null when it did not fail. */
function failedItem(error: unknown, name: string): { item: Record<string, unknown> | undefined } | null {
  if (!(error instanceof TransactionCancelledError) || !error.failed(name)) return null;
  return { item: error.current(name) ?? undefined };
}

/** Adds `delta` to each (version, status) count of the response's counter shard. */
function counterUpdate(workspace: string, surveyId: string, responseId: string, deltas: [string, number][]) {
  const counts = update().set('entity', COUNTER_ENTITY).set('surveyId', surveyId);
  for (const [attribute, delta] of deltas) counts.add(attribute, delta);
  return {
    Update: { TableName: tableName, Key: keys.surveyResponseCounter(workspace, surveyId, counterShardOf(responseId)), ...counts.build() },
  };
}

async function hashesOf(respondent: SubmitResponseBody['respondent']): Promise<string[]> {
  const hashes: Promise<string>[] = [];
  if (respondent?.externalId) hashes.push(respondentHash('externalId', respondent.externalId));
  if (respondent?.email) hashes.push(respondentHash('email', respondent.email));
  return Promise.all(hashes);
}

function newResponse(
  state: CollectingSurvey,
  body: SubmitResponseBody,
  replayed: { path: string[]; ending: string | null },
): SurveyResponse {
  const now = new Date().toISOString();
  const finished = body.finished ?? true;
  return {
    id: newResponseId(),
    surveyId: state.surveyId,
    versionId: state.publishedVersionId,
    status: finished ? 'finished' : 'partial',
    answers: body.answers,
    path: replayed.path,
    ending: replayed.ending,
    language: body.language ?? 'en',
    respondent: { externalId: body.respondent?.externalId ?? null, email: body.respondent?.email ?? null },
    attributes: body.respondent?.attributes ?? null,
    meta: body.meta ?? null,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    finishedAt: finished ? now : null,
    secondsToFinish: finished ? 0 : null,
  };
}

/**
 * Stores a new response pinned to the version published now. The answers are replayed against
 * that version; the write holds if the survey is still as validated against.
 */
export async function submitResponse(
  workspace: string,
  surveyId: string,
  body: SubmitResponseBody,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: SurveyResponse; replayed: boolean }> {
  assertAnswersFit(body.answers);
  const hashes = await hashesOf(body.respondent);
  let state: CollectingSurvey = await collectingSurvey(workspace, surveyId);
  for (let attempt = 1; ; attempt++) {
    let response: SurveyResponse;
    try {
      response = await validResponse(workspace, state, body);
    } catch (error) {
      // Refused on a cached guess (a newer version or new targeting rules may be published): ask again.
      if (!(error instanceof BadRequestError) || !state.cached) throw error;
      state = await collectingSurvey(workspace, surveyId, true);
      response = await validResponse(workspace, state, body);
    }
    const writes: NamedWrites = {
      survey: collectingCheck(workspace, state),
      response: {
        Put: { TableName: tableName, Item: responseItem(workspace, response, hashes), ConditionExpression: 'attribute_not_exists(pk)' },
      },
      ...Object.fromEntries(
        hashes.map((hash, i) => [
          `respondent${i}`,
          { Put: { TableName: tableName, Item: respondentIndexItem(workspace, hash, surveyId, response.id) } },
        ]),
      ),
      counter: counterUpdate(workspace, surveyId, response.id, [[counterAttribute(response.versionId, response.status), 1]]),
    };
    try {
      return await createOnce(workspace, writes, response, idempotency);
    } catch (error) {
      const surveyCheck = failedItem(error, 'survey');
      if (!surveyCheck || attempt >= SUBMIT_ATTEMPTS) throw error;
      state = refreshFromCheck(workspace, surveyId, surveyCheck.item);
    }
  }
}

/** The response these answers make on the survey as `state` says it is, or the reason it is refused. */
async function validResponse(workspace: string, state: CollectingSurvey, body: SubmitResponseBody): Promise<SurveyResponse> {
  const definition = await versionDefinition(workspace, state.surveyId, state.publishedVersionId);
  assertTargeted(state.targetingRules, body.respondent?.attributes);
  return newResponse(state, body, replayedOrThrow(definition, body.answers, body.finished ?? true));
}

async function readResponseItem(workspace: string, surveyId: string, responseId: string): Promise<Record<string, unknown>> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.surveyResponse(workspace, surveyId, responseId), ConsistentRead: true }),
  );
  if (!Item) throw responseNotFound();
  return Item;
}

export async function getResponse(workspace: string, surveyId: string, responseId: string): Promise<SurveyResponse> {
  return toResponse(await readResponseItem(workspace, surveyId, responseId));
}

/**
 * Merges a continuation into a partial response and replays the merged answers against the
 * version the response is pinned to (even after a newer one is published).
 */
export async function continueResponse(
  workspace: string,
  surveyId: string,
  responseId: string,
  body: ContinueResponseBody,
  precondition: VersionPrecondition,
): Promise<SurveyResponse> {
  if (!precondition) {
    throw new BadRequestError('if_match_required', "Send If-Match with the response's ETag (its revision) as last read");
  }
  const item = await readResponseItem(workspace, surveyId, responseId);
  const current = toResponse(item);
  if (!meetsPrecondition(precondition, current.revision)) throw new VersionConflictError(current.revision);
  if (current.status === 'finished') throw responseFinished();
  const answers = mergeAnswers(current.answers, body.answers);
  assertAnswersFit(answers);
  const finished = body.finished === true;
  const definition = await versionDefinition(workspace, surveyId, current.versionId);
  const replayed = replayedOrThrow(definition, answers, finished);
  const now = new Date().toISOString();
  const next: SurveyResponse = {
    ...current,
    answers,
    path: replayed.path,
    ending: replayed.ending,
    status: finished ? 'finished' : 'partial',
    revision: current.revision + 1,
    updatedAt: now,
    finishedAt: finished ? now : null,
    secondsToFinish: finished ? secondsBetween(current.createdAt, now) : null,
  };
  try {
    await transact({
      survey: stillCollectingCheck(workspace, surveyId),
      response: {
        Put: {
          TableName: tableName,
          Item: responseItem(workspace, next, (item.respondentIndex as string[] | undefined) ?? []),
          ConditionExpression: 'revision = :revision AND #status = :partial',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revision': current.revision, ':partial': 'partial' },
        },
      },
      counter:
        finished &&
        counterUpdate(workspace, surveyId, responseId, [
          [counterAttribute(current.versionId, 'partial'), -1],
          [counterAttribute(current.versionId, 'finished'), 1],
        ]),
    });
  } catch (error) {
    const survey = failedItem(error, 'survey');
    if (survey) throw survey.item ? surveyNotCollecting(String(survey.item.status)) : surveyNotFound();
    const response = failedItem(error, 'response');
    if (response) {
      if (!response.item) throw responseNotFound();
      if (response.item.status === 'finished') throw responseFinished();
      throw new VersionConflictError(Number(response.item.revision ?? 0));
    }
    throw error;
  }
  return next;
}

/**
 * The writes that remove a response (as read, so a continuation in between fails the `response`
 * condition) with its respondent index items, and leave its tombstone for the change feed.
 */
export function removalWrites(workspace: string, item: Record<string, unknown>, deletedAt: string): NamedWrites {
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
        Key: keys.surveyResponse(workspace, response.surveyId, response.id),
        ConditionExpression: 'revision = :revision',
        ExpressionAttributeValues: { ':revision': response.revision },
      },
    },
    ...Object.fromEntries(indexDeletes),
    tombstone: { Put: { TableName: tableName, Item: tombstoneItem(workspace, response.surveyId, response.id, deletedAt) } },
    counter: counterUpdate(workspace, response.surveyId, response.id, [[counterAttribute(response.versionId, response.status), -1]]),
  };
}

/** Deletes one response (of an archived survey too): the summary forgets it, the feed shows a tombstone. */
export async function deleteResponse(workspace: string, surveyId: string, responseId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const item = await readResponseItem(workspace, surveyId, responseId);
    try {
      await transact(removalWrites(workspace, item, new Date().toISOString()));
      return;
    } catch (error) {
      // Continued between the read and the delete: read it again (a few times at most).
      if (!failedItem(error, 'response') || attempt >= 3) throw error;
    }
  }
}
