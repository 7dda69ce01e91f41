/**
 * What a DynamoDB stream record says about an idea: the ideas area's one export for other areas
 * (the webhook pipeline), so only this area knows how an idea is stored. An idea is one item with
 * `entity: 'Idea'`, `id`, `workspace`, `status` (optional) and `version` (+1 on every change);
 * create is an INSERT, every update a MODIFY with both images, delete a REMOVE. A merge or an unmerge
 * is a MODIFY of the merged idea whose `mergedInto` appears or goes.
 *
 * Votes and comments are items of their own (vote-entities.ts, comment-entities.ts): a vote cast on the
 * idea by a customer (`direct`) appearing is `voted`, going `unvoted` (not the votes a merge carries,
 * nor those removed with a deleted idea); a comment appearing is `commented`. Identifiers only: never a
 * voter's reference, an author, a note or a comment's text.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamReading, StreamSource } from '../platform/event-sources.ts';
import { commentEntity } from './comment-entities.ts';
import { ideaEntity } from './entities.ts';
import type { Importance } from './vote-count.ts';
import { voteEntity } from './vote-entities.ts';

export interface IdeaChange {
  kind: 'submitted' | 'status_changed' | 'updated' | 'deleted' | 'voted' | 'unvoted' | 'commented' | 'merged' | 'unmerged';
  ideaId: string;
  workspace: string;
  /** When the change was committed. */
  timestamp: string;
  /** For `status_changed` only: both statuses, the message written with the new one, and how many had voted then. */
  previousStatus?: string | null;
  status?: string | null;
  statusMessage?: string | null;
  statusMessageAr?: string | null;
  voterCount?: number;
  /** For `voted` and `unvoted`. */
  voteId?: string;
  importance?: Importance;
  /** For `commented`. */
  commentId?: string;
  visibility?: 'public' | 'internal';
  /** For `merged`: the idea it was merged into; for `unmerged`: the one it left. */
  mergedInto?: string;
  unmergedFrom?: string;
}

type Item = Record<string, unknown> | null;

const stringOf = (item: Item, name: string): string | null => (typeof item?.[name] === 'string' ? (item[name] as string) : null);

function timestampOf(record: DynamoDBRecord, item: Item): string {
  // The item's own updatedAt is exact; the stream's creation time is rounded (to the second in
  // AWS, to the minute in DynamoDB Local), so it is only the fallback (and the time of a delete).
  const updatedAt = stringOf(item, 'updatedAt');
  if (updatedAt && !Number.isNaN(Date.parse(updatedAt))) return new Date(updatedAt).toISOString();
  return new Date(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
}

function workspaceOf(item: Item): string | null {
  return stringOf(item, 'workspace') ?? stringOf(item, 'pk')?.replace(/^WS#/, '') ?? null;
}

function changeOf(
  record: DynamoDBRecord,
  kind: IdeaChange['kind'],
  item: Item,
  ideaId: string | null,
  extra: Partial<IdeaChange> = {},
): IdeaChange | null {
  const workspace = workspaceOf(item);
  if (!ideaId || !workspace) return null;
  return { kind, ideaId, workspace, timestamp: timestampOf(record, record.eventName === 'REMOVE' ? null : item), ...extra };
}

/** The idea change a stream record describes, or null for anything that is not one. */
function ideaChangeOf(record: DynamoDBRecord): IdeaChange | null {
  const before = ideaEntity.fromStreamImage(record.dynamodb?.OldImage);
  const after = ideaEntity.fromStreamImage(record.dynamodb?.NewImage);
  const change = (kind: IdeaChange['kind'], idea: Item, extra: Partial<IdeaChange> = {}) =>
    changeOf(record, kind, idea, stringOf(idea, 'id'), extra);

  switch (record.eventName) {
    case 'INSERT':
      return after ? change('submitted', after) : null;
    case 'REMOVE':
      return before ? change('deleted', before) : null;
    case 'MODIFY': {
      if (!after || !before) return null;
      const [wasInto, isInto] = [stringOf(before, 'mergedInto'), stringOf(after, 'mergedInto')];
      if (!wasInto && isInto) return change('merged', after, { mergedInto: isInto });
      if (wasInto && !isInto) return change('unmerged', after, { unmergedFrom: wasInto });
      const previousStatus = stringOf(before, 'status');
      const status = stringOf(after, 'status');
      if (previousStatus !== status) {
        return change('status_changed', after, {
          previousStatus,
          status,
          statusMessage: stringOf(after, 'statusMessage'),
          statusMessageAr: stringOf(after, 'statusMessageAr'),
          voterCount: typeof after.statusVoterCount === 'number' ? after.statusVoterCount : 0,
        });
      }
      // A rewrite that did not bump the version changed nothing the idea's owner would call an edit.
      if (before.version === after.version) return null;
      return change('updated', after);
    }
    default:
      return null;
  }
}

/** A customer's vote appearing on an idea, or going from it. */
function voteChangeOf(record: DynamoDBRecord): IdeaChange | null {
  const before = voteEntity.fromStreamImage(record.dynamodb?.OldImage);
  const after = voteEntity.fromStreamImage(record.dynamodb?.NewImage);
  const cast = (vote: Item) => vote?.direct === true;
  const change = (kind: 'voted' | 'unvoted', vote: Item) =>
    changeOf(record, kind, vote, stringOf(vote, 'ideaId'), {
      voteId: stringOf(vote, 'id') ?? '',
      ...(kind === 'voted' ? { importance: vote?.importance as Importance } : {}),
    });
  // Cast now: a new vote, or one that so far only came from a merged idea.
  if (cast(after) && !cast(before)) return change('voted', after);
  // Withdrawn, or erased; not removed with its idea (`ideaDeleted`).
  if (record.eventName === 'REMOVE' && cast(before) && before?.ideaDeleted !== true) return change('unvoted', before);
  return null;
}

function commentChangeOf(record: DynamoDBRecord): IdeaChange | null {
  if (record.eventName !== 'INSERT') return null;
  const comment = commentEntity.fromStreamImage(record.dynamodb?.NewImage);
  return comment
    ? changeOf(record, 'commented', comment, stringOf(comment, 'ideaId'), {
        commentId: stringOf(comment, 'id') ?? '',
        visibility: comment.visibility as 'public' | 'internal',
      })
    : null;
}

/** Idea changes, as the webhook fan-out asks. */
export const ideaChanges: StreamSource<IdeaChange> = { entity: ideaEntity, changeOf: ideaChangeOf };
/** Votes cast and withdrawn, as the webhook fan-out asks. */
export const voteChanges: StreamSource<IdeaChange> = { entity: voteEntity, changeOf: voteChangeOf };
/** Comments written, as the webhook fan-out asks. */
export const commentChanges: StreamSource<IdeaChange> = { entity: commentEntity, changeOf: commentChangeOf };

/**
 * The ideas' own reader of the table stream (stream-readers.ts): votes appearing and going (ranks), ideas
 * deleted (their leftovers) and merged or unmerged (the votes to move), for the mapping that runs it.
 */
export const ideaVoteFoldReading: StreamReading = { name: 'Idea ranks, merges and leftovers', entities: [ideaEntity, voteEntity] };
