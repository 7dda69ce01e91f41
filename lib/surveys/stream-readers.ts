/**
 * What the surveys area reads on the table stream: every change of a survey response (partial ones,
 * deletions and erasures too) folds into the summaries. (Finished responses are also webhook events:
 * the webhooks area asks lib/surveys/stream.ts for those.)
 */
import { logger } from '../platform/logger.ts';
import type { StreamReader } from '../platform/partial-batch.ts';
import { foldResponseChanges } from './commands/fold-response-changes.ts';
import { surveySummaryReading } from './stream.ts';
import { type ResponseRecord, responseRecordOf } from './summary/stream-records.ts';

/** The batch's responses at once; when that fails, the batch is retried from its first response. */
export const surveySummaries: StreamReader = {
  ...surveySummaryReading,
  selects: (record) => responseRecordOf(record) !== null,
  async read(records) {
    const responses = records.map(responseRecordOf) as ResponseRecord[];
    const result = await foldResponseChanges(responses);
    logger.debug('Survey summary updated', { records: responses.length, ...result });
  },
};
