/**
 * The table-stream consumer that keeps each workspace's search index current
 * (lib/knowledge-bank/search/pipeline.ts has its event source mapping).
 *
 * A batch is coalesced into one update per workspace. When a workspace's update fails, its first
 * record is reported as the batch item failure: Lambda checkpoints everything before the lowest
 * one reported and retries from there. Repeating a record is harmless: an update reads the
 * articles' current state, whatever the record said. A workspace `cxctl workspace delete` has marked,
 * or that is gone, is skipped (one consistent read per workspace and batch).
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { updateSearchIndex } from '../../lib/knowledge-bank/search/builder.ts';
import { coalesce } from '../../lib/knowledge-bank/search/stream.ts';
import { workspaceAcceptsDerivedWrites } from '../../lib/platform/data/workspaces.ts';
import { logger } from '../../lib/platform/logger.ts';

async function buildSearchIndexes(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const failed: string[] = [];
  // One workspace at a time: an index of a large workspace takes tens of megabytes of memory.
  for (const update of coalesce(event.Records)) {
    try {
      // A workspace being deleted: its articles' removals must not write its index back.
      if (!(await workspaceAcceptsDerivedWrites(update.workspace))) continue;
      const result = await updateSearchIndex(update.workspace, update.articleIds);
      logger.info('search index updated', { ...result });
    } catch (error) {
      logger.error('search index update failed', { workspace: update.workspace, error });
      failed.push(update.firstSequenceNumber);
    }
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = buildSearchIndexes;
