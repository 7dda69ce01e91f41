/**
 * Survey response items written straight to the table in the shape the responses and summary
 * branches agreed on (SURVEY-RESPONSES-CONTRACT §1: one item, `revision` +1 on every write, delete
 * removes it), so the summary's aggregator is tested on real stream records independently of the
 * responses API. Each is counted in its range's counter, as a submit counts it, so the list (which
 * reads only the ranges its counters name) shows it too.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../lib/platform/data/keys.ts';
import { COUNTER_ENTITY, counterShardOf, countMoves } from '../../lib/surveys/responses/counters.ts';
import { responseCounterEntity, surveyResponseEntity } from '../../lib/surveys/responses/entities.ts';
import { adminStore } from './fixtures.ts';

export interface StoredResponse {
  id: string;
  surveyId: string;
  versionId: string;
  status: 'partial' | 'finished';
  answers: Record<string, unknown>;
  path: string[];
  revision: number;
  createdAt: string;
  secondsToFinish?: number;
}

/** Moves the response's count as the responses store does (lib/surveys/responses/counters.ts). */
async function count(
  slug: string,
  response: StoredResponse,
  before: StoredResponse['status'] | null,
  after: StoredResponse['status'] | null,
) {
  const shard = counterShardOf(response.id);
  const moves = countMoves(response.versionId, before && { shard, status: before }, after && { shard, status: after });
  for (const [counter, changes] of moves) {
    const names = [...changes.keys()];
    await adminStore().db.send(
      new UpdateCommand({
        TableName: adminStore().table,
        Key: responseCounterEntity.keys.counter(slug, response.surveyId, counter),
        UpdateExpression: `SET entity = :entity ADD ${names.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
        ExpressionAttributeValues: {
          ':entity': COUNTER_ENTITY,
          ...Object.fromEntries(names.map((name, i) => [`:c${i}`, changes.get(name)])),
        },
      }),
    );
  }
}

async function write(slug: string, response: StoredResponse): Promise<StoredResponse> {
  const now = new Date().toISOString();
  await adminStore().db.send(
    new PutCommand({
      TableName: adminStore().table,
      Item: {
        ...surveyResponseEntity.keys.response(slug, response.surveyId, response.id),
        entity: 'SurveyResponse',
        workspace: slug,
        ...response,
        language: 'en',
        respondentEmail: 'respondent@example.com',
        updatedAt: now,
        ...(response.status === 'finished' ? { finishedAt: now } : {}),
      },
    }),
  );
  return response;
}

/** A new response (revision 1), started at `createdAt` (default now). */
export async function submitResponse(
  slug: string,
  fields: Omit<StoredResponse, 'id' | 'revision' | 'createdAt'> & { createdAt?: string },
): Promise<StoredResponse> {
  const response = await write(slug, { id: randomUUID(), revision: 1, createdAt: new Date().toISOString(), ...fields });
  await count(slug, response, null, response.status);
  return response;
}

/** The response rewritten with `changes` at the next revision (a continuation or a finish). */
export async function continueResponse(slug: string, response: StoredResponse, changes: Partial<StoredResponse>): Promise<StoredResponse> {
  const next = await write(slug, {
    ...response,
    ...changes,
    answers: { ...response.answers, ...changes.answers },
    revision: response.revision + 1,
  });
  await count(slug, next, response.status, next.status);
  return next;
}

export async function deleteResponse(slug: string, response: StoredResponse): Promise<void> {
  await adminStore().db.send(
    new DeleteCommand({ TableName: adminStore().table, Key: surveyResponseEntity.keys.response(slug, response.surveyId, response.id) }),
  );
  await count(slug, response, response.status, null);
}

/** Every stored response of a survey, as the table holds them now. */
export async function storedResponses(slug: string, surveyId: string): Promise<StoredResponse[]> {
  const { Items } = await adminStore().db.send(
    new QueryCommand({
      TableName: adminStore().table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      // Every range of the survey's responses starts with this (lib/surveys/responses/entities.ts).
      ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': `SURVEYRESP#${surveyId}#` },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as StoredResponse[];
}
