/**
 * Survey response items written straight to the table in the shape the responses and summary
 * branches agreed on (SURVEY-RESPONSES-CONTRACT §1: one item, `revision` +1 on every write, delete
 * removes it), so the summary's aggregator is tested on real stream records independently of the
 * responses API.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../lib/platform/data/keys.ts';
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

async function write(slug: string, response: StoredResponse): Promise<StoredResponse> {
  const now = new Date().toISOString();
  await adminStore().db.send(
    new PutCommand({
      TableName: adminStore().table,
      Item: {
        ...keys.surveyResponse(slug, response.surveyId, response.id),
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
export function submitResponse(
  slug: string,
  fields: Omit<StoredResponse, 'id' | 'revision' | 'createdAt'> & { createdAt?: string },
): Promise<StoredResponse> {
  return write(slug, { id: randomUUID(), revision: 1, createdAt: new Date().toISOString(), ...fields });
}

/** The response rewritten with `changes` at the next revision (a continuation or a finish). */
export function continueResponse(slug: string, response: StoredResponse, changes: Partial<StoredResponse>): Promise<StoredResponse> {
  return write(slug, { ...response, ...changes, answers: { ...response.answers, ...changes.answers }, revision: response.revision + 1 });
}

export async function deleteResponse(slug: string, response: StoredResponse): Promise<void> {
  await adminStore().db.send(
    new DeleteCommand({ TableName: adminStore().table, Key: keys.surveyResponse(slug, response.surveyId, response.id) }),
  );
}

/** Every stored response of a survey, as the table holds them now. */
export async function storedResponses(slug: string, surveyId: string): Promise<StoredResponse[]> {
  const { Items } = await adminStore().db.send(
    new QueryCommand({
      TableName: adminStore().table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      // Every range of the survey's responses starts with this (keys.ts `surveyResponseShardPrefix`).
      ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': `SURVEYRESP#${surveyId}#` },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as StoredResponse[];
}
