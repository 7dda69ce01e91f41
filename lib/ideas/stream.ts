/**
 * What a DynamoDB stream record says about an idea: the ideas area's one export for other areas
 * (the webhook pipeline), so only this area knows how an idea is stored. An idea is one item with
 * `entity: 'Idea'`, `id`, `workspace`, `status` (optional) and `version` (+1 on every change);
 * create is an INSERT, every update a MODIFY with both images, delete a REMOVE.
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { IDEA_ENTITY } from './record.ts';

export interface IdeaChange {
  kind: 'submitted' | 'status_changed' | 'updated' | 'deleted';
  ideaId: string;
  workspace: string;
  /** When the change was committed. */
  timestamp: string;
  /** For `status_changed` only. */
  previousStatus?: string | null;
  status?: string | null;
}

type Image = Record<string, AttributeValue> | undefined;

const stringOf = (image: Image, name: string): string | null => image?.[name]?.S ?? null;
const numberOf = (image: Image, name: string): number | null => {
  const n = image?.[name]?.N;
  return n === undefined ? null : Number(n);
};

const isIdea = (image: Image) => stringOf(image, 'entity') === IDEA_ENTITY;

function timestampOf(record: DynamoDBRecord, image: Image): string {
  // The idea's own updatedAt is exact; the stream's creation time is rounded (to the second in
  // AWS, to the minute in DynamoDB Local), so it is only the fallback (and the time of a delete).
  const updatedAt = stringOf(image, 'updatedAt');
  if (updatedAt && !Number.isNaN(Date.parse(updatedAt))) return new Date(updatedAt).toISOString();
  return new Date(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
}

function workspaceOf(image: Image): string | null {
  return stringOf(image, 'workspace') ?? stringOf(image, 'pk')?.replace(/^WS#/, '') ?? null;
}

/** The idea change a stream record describes, or null for anything that is not one. */
export function ideaChangeOf(record: DynamoDBRecord): IdeaChange | null {
  const oldImage = record.dynamodb?.OldImage;
  const newImage = record.dynamodb?.NewImage;
  const change = (kind: IdeaChange['kind'], image: Image, extra: Pick<IdeaChange, 'previousStatus' | 'status'> = {}): IdeaChange | null => {
    const ideaId = stringOf(image, 'id');
    const workspace = workspaceOf(image);
    if (!ideaId || !workspace) return null;
    return { kind, ideaId, workspace, timestamp: timestampOf(record, record.eventName === 'REMOVE' ? undefined : image), ...extra };
  };

  switch (record.eventName) {
    case 'INSERT':
      return isIdea(newImage) ? change('submitted', newImage) : null;
    case 'REMOVE':
      return isIdea(oldImage) ? change('deleted', oldImage) : null;
    case 'MODIFY': {
      if (!isIdea(newImage) || !isIdea(oldImage)) return null;
      const previousStatus = stringOf(oldImage, 'status');
      const status = stringOf(newImage, 'status');
      if (previousStatus !== status) return change('status_changed', newImage, { previousStatus, status });
      // A rewrite that did not bump the version changed nothing the idea's owner would call an edit.
      if (numberOf(oldImage, 'version') === numberOf(newImage, 'version')) return null;
      return change('updated', newImage);
    }
    default:
      return null;
  }
}
