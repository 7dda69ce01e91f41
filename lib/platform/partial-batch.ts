/**
 * The one partial-batch helper of the stream and queue entries: an entry names what reads its batch,
 * this turns the outcome into Lambda's `batchItemFailures`, and nothing is ever dropped (an error is
 * either a reported failure or thrown).
 *
 * Written here rather than taken from `@aws-lambda-powertools/batch`: Powertools hands a batch to a
 * handler record by record, while two of the table stream's readers need the batch whole (the survey
 * summary folds a batch's responses into one transaction, the search index coalesces a batch per
 * workspace); and a stream's partial failure is a checkpoint (Lambda retries from the lowest sequence
 * number reported, every later record with it), which a per-record report does not say.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod/mini';
import { flushUsage } from './data/usage-writes.ts';
import type { StreamReading } from './event-sources.ts';
import { logger } from './logger.ts';

// ——— table stream ——————————————————————————————————————————————————————————————————————

/** An area's reader of the table stream (as its mapping declares it): the records it selects, read in stream order. */
export interface StreamReader extends StreamReading {
  selects(record: DynamoDBRecord): boolean;
  /**
   * Reads its records. Throw `RetryFrom` to have its records read again from one of them on (the ones
   * before it are done); any other error has them all read again. A record may come again after a
   * failure (of this reader or another): reading one twice must be harmless.
   */
  read(records: DynamoDBRecord[]): Promise<void>;
}

/** A reader's failure at one of its records: the batch is retried from it. */
export class RetryFrom extends Error {
  constructor(
    readonly record: DynamoDBRecord,
    readonly error: unknown,
  ) {
    super(`retry from ${record.dynamodb?.SequenceNumber}`);
  }
}

/** Whether two readers read the same: one name, one set of entities. */
const sameReading = (a: StreamReading, b: StreamReading | undefined) =>
  a.name === b?.name && a.entities.map((e) => e.name).join() === b.entities.map((e) => e.name).join();

/**
 * The entry of one stream mapping: each batch goes to the readers the mapping declares (its filter
 * comes from their entities), in that order, each getting the records it selects. Lambda retries from
 * the lowest sequence number reported, so when a reader fails at a record, the readers after it get
 * only the records before that one (the rest come back to every reader anyway); the entry reports that
 * record alone. Readers other than the mapping's fail the cold start, before any record is read.
 */
export function readTableStream(mapping: { readers: readonly StreamReading[] }, readers: readonly StreamReader[]) {
  if (readers.length !== mapping.readers.length || readers.some((reader, i) => !sameReading(reader, mapping.readers[i]))) {
    throw new Error(
      `The stream entry reads [${readers.map((r) => r.name).join(', ')}] but its mapping declares [${mapping.readers.map((r) => r.name).join(', ')}]`,
    );
  }
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    let retryFrom = event.Records.length;
    for (const reader of readers) {
      // Until its selection is made, a reader's records are all of them: a record it cannot tell fails there.
      let records = event.Records.slice(0, retryFrom);
      try {
        records = records.filter((record) => reader.selects(record));
        if (records.length > 0) await reader.read(records);
      } catch (thrown) {
        const [failed, error] = thrown instanceof RetryFrom ? [thrown.record, thrown.error] : [records[0] as DynamoDBRecord, thrown];
        logger.error(`${reader.name} failed; the batch is retried from this record`, {
          error: error as Error,
          eventID: failed.eventID,
          sequenceNumber: failed.dynamodb?.SequenceNumber,
        });
        retryFrom = Math.min(retryFrom, event.Records.indexOf(failed));
      }
    }
    const failed = event.Records[retryFrom];
    return { batchItemFailures: failed ? [{ itemIdentifier: failed.dynamodb?.SequenceNumber ?? '' }] : [] };
  };
}

// ——— queues ————————————————————————————————————————————————————————————————————————————

/** A message handed back on purpose (not ready yet): reported as failed, so SQS keeps it, but no error. */
export class MessageHandedBack extends Error {}

/**
 * An area's reader of one queue. Its message is JSON of one schema (the sender's, beside it: as
 * Powertools' parser takes an `innerSchema`), parsed here before `read` sees it; a message that does
 * not parse fails like any other, so it comes back and is parked on the dead-letter queue, not dropped.
 */
export interface QueueReader<Message, Context = unknown> {
  /** What a message asks for, for the logs ("Webhook delivery", …). */
  name: string;
  message: z.ZodMiniType<Message>;
  /** Handles one message; throwing keeps it on the queue (it comes back, then goes to the dead-letter queue). */
  read(message: Message, record: SQSRecord, context: Context): Promise<void>;
  /** Messages of a batch at once, or one after another. */
  concurrent: boolean;
}

/** The entry of one queue mapping: every message that throws is a batch item failure, every other one is deleted. */
export function readQueue<Message, Context = unknown>(reader: QueueReader<Message, Context>) {
  // Lambda always passes the context; tests that drive an entry directly may not.
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    const failed: SQSRecord[] = [];
    const readOne = async (message: SQSRecord) => {
      try {
        await reader.read(reader.message.parse(JSON.parse(message.body)), message, context as Context);
      } catch (error) {
        if (!(error instanceof MessageHandedBack)) {
          logger.error(`${reader.name} failed; SQS delivers the message again`, { error: error as Error, messageId: message.messageId });
        }
        failed.push(message);
      }
    };
    if (reader.concurrent) await Promise.all(event.Records.map(readOne));
    else for (const message of event.Records) await readOne(message);
    // What the batch added to its workspaces' usage (deliveries, export bytes), written before the
    // batch ends: Lambda may retire the instance once it returned. Nothing to write sends nothing.
    await flushUsage({ force: true });
    return { batchItemFailures: event.Records.filter((m) => failed.includes(m)).map((m) => ({ itemIdentifier: m.messageId })) };
  };
}
