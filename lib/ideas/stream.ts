/**
 * What a DynamoDB stream record says about an idea: the ideas area's one export for other areas
 * (the webhook pipeline), so only this area knows how an idea is stored. An idea is one item with
 * `entity: 'Idea'`, `id`, `workspace`, `status` (optional) and `version` (+1 on every change);
 * create is an INSERT, every update a MODIFY with both images, delete a REMOVE.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamSource } from '../platform/event-sources.ts';
import { ideaEntity } from './entities.ts';

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

type Idea = Record<string, unknown> | null;

const stringOf = (idea: Idea, name: string): string | null => (typeof idea?.[name] === 'string' ? (idea[name] as string) : null);

function timestampOf(record: DynamoDBRecord, idea: Idea): string {
  // The idea's own updatedAt is exact; the stream's creation time is rounded (to the second in
  // AWS, to the minute in DynamoDB Local), so it is only the fallback (and the time of a delete).
  const updatedAt = stringOf(idea, 'updatedAt');
  if (updatedAt && !Number.isNaN(Date.parse(updatedAt))) return new Date(updatedAt).toISOString();
  return new Date(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
}

function workspaceOf(idea: Idea): string | null {
  return stringOf(idea, 'workspace') ?? stringOf(idea, 'pk')?.replace(/^WS#/, '') ?? null;
}

/** The idea change a stream record describes, or null for anything that is not one. */
function ideaChangeOf(record: DynamoDBRecord): IdeaChange | null {
  const before = ideaEntity.fromStreamImage(record.dynamodb?.OldImage);
  const after = ideaEntity.fromStreamImage(record.dynamodb?.NewImage);
  const change = (kind: IdeaChange['kind'], idea: Idea, extra: Pick<IdeaChange, 'previousStatus' | 'status'> = {}): IdeaChange | null => {
    const ideaId = stringOf(idea, 'id');
    const workspace = workspaceOf(idea);
    if (!ideaId || !workspace) return null;
    return { kind, ideaId, workspace, timestamp: timestampOf(record, record.eventName === 'REMOVE' ? null : idea), ...extra };
  };

  switch (record.eventName) {
    case 'INSERT':
      return after ? change('submitted', after) : null;
    case 'REMOVE':
      return before ? change('deleted', before) : null;
    case 'MODIFY': {
      if (!after || !before) return null;
      const previousStatus = stringOf(before, 'status');
      const status = stringOf(after, 'status');
      if (previousStatus !== status) return change('status_changed', after, { previousStatus, status });
      // A rewrite that did not bump the version changed nothing the idea's owner would call an edit.
      if (before.version === after.version) return null;
      return change('updated', after);
    }
    default:
      return null;
  }
}

/** Idea changes, as the webhook fan-out asks. */
export const ideaChanges: StreamSource<IdeaChange> = { entity: ideaEntity, changeOf: ideaChangeOf };
