/**
 * What a DynamoDB stream record says about survey responses: the surveys area's one export for
 * other areas (the webhook pipeline), so only this area knows how a response is stored
 * (lib/surveys/responses/record.ts). A response is finished when it is created finished (INSERT)
 * or when a continuation moves it from partial to finished (MODIFY, or an INSERT at its new key when
 * that continuation also moved it out of the legacy layout); nothing else is an event, neither a
 * finished response moved by the migration nor the removal of its legacy item.
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { RESPONSE_ENTITY } from './responses/entity.ts';

export interface ResponseFinished {
  kind: 'response.finished';
  workspace: string;
  surveyId: string;
  versionId: string;
  responseId: string;
  /** When it was finished. */
  timestamp: string;
}

type Image = Record<string, AttributeValue> | undefined;
const stringOf = (image: Image, name: string): string | null => image?.[name]?.S ?? null;

/** The response event a stream record means, or null for anything else. Never reads answers or the respondent. */
export function surveyResponseChangeOf(record: DynamoDBRecord): ResponseFinished | null {
  const newImage = record.dynamodb?.NewImage;
  if (stringOf(newImage, 'entity') !== RESPONSE_ENTITY || stringOf(newImage, 'status') !== 'finished') return null;
  if (record.eventName === 'MODIFY' && stringOf(record.dynamodb?.OldImage, 'status') !== 'partial') return null;
  // A response moved out of the legacy layout (responses/layout.ts) arrives as an INSERT at its new key:
  // finished by that very write only if it was partial before the move (a continuation moved it).
  if (record.eventName === 'INSERT' && stringOf(newImage, 'movedFromStatus') === 'finished') return null;
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return null;
  const workspace = stringOf(newImage, 'workspace');
  const surveyId = stringOf(newImage, 'surveyId');
  const versionId = stringOf(newImage, 'versionId');
  const responseId = stringOf(newImage, 'id');
  if (!workspace || !surveyId || !versionId || !responseId) return null;
  const finishedAt = stringOf(newImage, 'finishedAt');
  const timestamp =
    finishedAt && !Number.isNaN(Date.parse(finishedAt))
      ? new Date(finishedAt).toISOString()
      : new Date(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
  return { kind: 'response.finished', workspace, surveyId, versionId, responseId, timestamp };
}
