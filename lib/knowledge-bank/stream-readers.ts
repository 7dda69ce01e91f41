/**
 * What the knowledge bank reads on the table stream: article changes a reader of search would
 * notice (search/stream.ts), coalesced into one index update per workspace.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '../platform/logger.ts';
import { RetryFrom, type StreamReader } from '../platform/partial-batch.ts';
import { updateWorkspaceSearchIndex } from './commands/update-search-index.ts';
import { coalesce, searchChangeOf, searchIndexReading } from './search/stream.ts';

/**
 * One workspace at a time (an index of a large workspace takes tens of megabytes of memory). A
 * workspace whose update fails does not stop the others; the batch is retried from the first record
 * of the earliest one that failed.
 */
export const searchIndex: StreamReader = {
  ...searchIndexReading,
  selects: (record) => searchChangeOf(record) !== null,
  async read(records) {
    let failure: RetryFrom | undefined;
    for (const update of coalesce(records)) {
      try {
        await updateWorkspaceSearchIndex(update.workspace, update.articleIds);
      } catch (error) {
        logger.error('search index update failed', { workspace: update.workspace, error });
        const first = records.find((record) => record.dynamodb?.SequenceNumber === update.firstSequenceNumber) as DynamoDBRecord;
        if (!failure || records.indexOf(first) < records.indexOf(failure.record)) failure = new RetryFrom(first, error);
      }
    }
    if (failure) throw failure;
  },
};
