/**
 * What a DynamoDB stream record says about survey responses: the surveys area's one export for
 * other areas (the webhook pipeline), so only this area knows how a response is stored
 * (lib/surveys/responses/record.ts). A response is finished when it is created finished (INSERT)
 * or when a continuation moves it from partial to finished (MODIFY, or an INSERT at its new key when
 * that continuation also moved it out of the legacy layout); nothing else is an event, neither a
 * finished response moved by the migration nor the removal of its legacy item.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamReading, StreamSource } from '../platform/event-sources.ts';
import { surveyResponseEntity } from './responses/entities.ts';

export interface ResponseFinished {
  kind: 'response.finished';
  workspace: string;
  surveyId: string;
  versionId: string;
  responseId: string;
  /** When it was finished. */
  timestamp: string;
}

const text = (item: Record<string, unknown> | null, name: string): string | null =>
  typeof item?.[name] === 'string' ? (item[name] as string) : null;

/** The response event a stream record means, or null for anything else. Never reads answers or the respondent. */
function finishOf(record: DynamoDBRecord): ResponseFinished | null {
  const after = surveyResponseEntity.fromStreamImage(record.dynamodb?.NewImage);
  if (text(after, 'status') !== 'finished') return null;
  if (record.eventName === 'MODIFY' && text(surveyResponseEntity.fromStreamImage(record.dynamodb?.OldImage), 'status') !== 'partial')
    return null;
  // A response moved out of the legacy layout (responses/store/layout.ts) arrives as an INSERT at its new key:
  // finished by that very write only if it was partial before the move (a continuation moved it).
  if (record.eventName === 'INSERT' && text(after, 'movedFromStatus') === 'finished') return null;
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return null;
  const workspace = text(after, 'workspace');
  const surveyId = text(after, 'surveyId');
  const versionId = text(after, 'versionId');
  const responseId = text(after, 'id');
  if (!workspace || !surveyId || !versionId || !responseId) return null;
  const finishedAt = text(after, 'finishedAt');
  const timestamp =
    finishedAt && !Number.isNaN(Date.parse(finishedAt))
      ? new Date(finishedAt).toISOString()
      : new Date(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
  return { kind: 'response.finished', workspace, surveyId, versionId, responseId, timestamp };
}

/** Finished responses, as the webhook fan-out asks. */
export const finishedResponses: StreamSource<ResponseFinished> = { entity: surveyResponseEntity, changeOf: finishOf };

/** The summary's reader (stream-readers.ts): every change of a response, partial ones, deletions and erasures too. */
export const surveySummaryReading: StreamReading = { name: 'Survey summary update', entities: [surveyResponseEntity] };
