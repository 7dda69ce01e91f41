/**
 * What the ideas area reads on the table stream for itself (webhook events are the webhooks area's,
 * asking lib/ideas/stream.ts): the changes of votes, the deletion of ideas and the merges committed,
 * folded by one command per batch (commands/fold-idea-changes.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '../platform/logger.ts';
import type { StreamReader } from '../platform/partial-batch.ts';
import { foldIdeaChanges, type IdeaChanges } from './commands/fold-idea-changes.ts';
import { ideaEntity } from './entities.ts';
import { ideaVoteFoldReading } from './stream.ts';
import { voteEntity } from './vote-entities.ts';

/** What one record asks of the fold, or null when nothing. */
function changeOf(record: DynamoDBRecord): { kind: keyof IdeaChanges; change: IdeaChanges[keyof IdeaChanges][number] } | null {
  const { OldImage, NewImage } = record.dynamodb ?? {};
  if (record.eventName === 'INSERT' || record.eventName === 'REMOVE') {
    const vote = voteEntity.fromStreamImage(record.eventName === 'INSERT' ? NewImage : OldImage);
    if (vote) return { kind: 'voted', change: { workspace: vote.workspace as string, ideaId: vote.ideaId as string } };
  }
  const [before, after] = [ideaEntity.fromStreamImage(OldImage), ideaEntity.fromStreamImage(NewImage)];
  if (record.eventName === 'REMOVE' && before) {
    return { kind: 'deleted', change: { workspace: before.workspace as string, ideaId: before.id as string } };
  }
  // A merge's or an unmerge's move its request handed off (it ran out of time): the rest is moved here.
  if (record.eventName === 'MODIFY' && before && after && after.mergeHandoff !== undefined && before.mergeHandoff !== after.mergeHandoff) {
    return { kind: 'merged', change: { workspace: after.workspace as string, ideaId: after.id as string } };
  }
  return null;
}

/** The batch's changes at once; when that fails, the batch is retried from its first record here. */
export const ideaVoteFold: StreamReader = {
  ...ideaVoteFoldReading,
  selects: (record) => changeOf(record) !== null,
  async read(records) {
    const changes: IdeaChanges = { voted: [], deleted: [], merged: [] };
    for (const record of records) {
      const found = changeOf(record);
      if (found) (changes[found.kind] as unknown[]).push(found.change);
    }
    const result = await foldIdeaChanges(changes);
    logger.debug('Idea votes folded', { records: records.length, ...result });
  },
};
