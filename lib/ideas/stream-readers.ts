/**
 * What the ideas area reads on the table stream for itself (webhook events are the webhooks area's,
 * asking lib/ideas/stream.ts): the changes of votes, the deletion of ideas and the merges committed,
 * folded by one command per batch (commands/fold-idea-changes.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '../platform/logger.ts';
import type { StreamReader } from '../platform/partial-batch.ts';
import { foldIdeaChanges, type IdeaChanges } from './commands/fold-idea-changes.ts';
import type { MergeWork } from './merging.ts';
import { IDEA_ENTITY } from './record.ts';
import { rankEntity, voteEntity } from './vote-entities.ts';

type Image = Record<string, unknown> | undefined;

const isIdea = (image: Image) => (image?.entity as { S?: string } | undefined)?.S === IDEA_ENTITY;

/** What one record asks of the fold, or null when nothing. */
function changeOf(record: DynamoDBRecord): { kind: keyof IdeaChanges; change: IdeaChanges[keyof IdeaChanges][number] } | null {
  const { OldImage, NewImage } = record.dynamodb ?? {};
  if (record.eventName === 'INSERT' || record.eventName === 'REMOVE') {
    const vote = voteEntity.fromStreamImage(record.eventName === 'INSERT' ? NewImage : OldImage);
    if (vote) return { kind: 'voted', change: { workspace: vote.workspace as string, ideaId: vote.ideaId as string } };
  }
  if (record.eventName === 'REMOVE' && isIdea(OldImage)) {
    const idea = OldImage as Record<string, { S?: string }>;
    return { kind: 'deleted', change: { workspace: idea.workspace?.S as string, ideaId: idea.id?.S as string } };
  }
  if (record.eventName === 'MODIFY') {
    const [before, after] = [rankEntity.fromStreamImage(OldImage), rankEntity.fromStreamImage(NewImage)];
    if (after?.mergeWork && (!before?.mergeWork || before.mergeGeneration !== after.mergeGeneration)) {
      const kind = after.mergeWork as MergeWork;
      return {
        kind: 'moves',
        change: {
          workspace: after.workspace as string,
          ideaId: after.ideaId as string,
          kind,
          target: (kind === 'merge' ? after.mergedInto : after.mergeTarget) as string,
          generation: after.mergeGeneration as number,
        },
      };
    }
  }
  return null;
}

/** The batch's changes at once; when that fails, the batch is retried from its first record here. */
export const ideaVoteFold: StreamReader = {
  name: 'Idea ranks, merges and leftovers',
  selects: (record) => changeOf(record) !== null,
  async read(records) {
    const changes: IdeaChanges = { voted: [], deleted: [], moves: [] };
    for (const record of records) {
      const found = changeOf(record);
      if (found) (changes[found.kind] as unknown[]).push(found.change);
    }
    const result = await foldIdeaChanges(changes);
    logger.debug('Idea votes folded', { records: records.length, ...result });
  },
};
