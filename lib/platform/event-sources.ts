/**
 * The shapes of queues and Lambda event source mappings, read by the CDK stack and the local
 * sandbox's emulator alike, so both run the same settings. Each area that consumes the table
 * stream or a queue (webhooks, the knowledge-bank search builder and link checker) declares its
 * consumers with these.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { TableAction } from './route.ts';

export interface QueueDefinition {
  /** CDK construct id; AWS picks the physical name. */
  id: string;
  /** The queue's name in the sandbox's SQS emulator. */
  sandboxName: string;
  visibilityTimeoutSeconds: number;
  retentionSeconds: number;
  /** Redrive to this queue after this many receives. */
  deadLetter?: { queue: QueueDefinition; maxReceiveCount: number };
}

/** Seconds in a day, for retention and record ages. */
export const DAY_SECONDS = 86_400;

/**
 * A queue that only parks what failed (a dead-letter queue, a stream mapping's on-failure
 * destination): nothing consumes it, so its visibility timeout hardly matters, and it keeps a
 * message 14 days (SQS's maximum) for someone to look at or redrive.
 */
export function failureQueue(id: string, sandboxName: string): QueueDefinition {
  return { id, sandboxName, visibilityTimeoutSeconds: 30, retentionSeconds: 14 * DAY_SECONDS };
}

/**
 * A queue a Lambda function consumes: its visibility timeout is six times the function's timeout,
 * as AWS recommends for SQS event sources, and a message received `maxReceiveCount` times is
 * parked on the dead-letter queue, never dropped.
 */
export function consumedQueue(queue: {
  id: string;
  sandboxName: string;
  consumerTimeoutSeconds: number;
  retentionSeconds: number;
  deadLetter: QueueDefinition;
  maxReceiveCount: number;
}): QueueDefinition {
  return {
    id: queue.id,
    sandboxName: queue.sandboxName,
    visibilityTimeoutSeconds: 6 * queue.consumerTimeoutSeconds,
    retentionSeconds: queue.retentionSeconds,
    deadLetter: { queue: queue.deadLetter, maxReceiveCount: queue.maxReceiveCount },
  };
}

/** An event-source-mapping filter pattern (EventBridge pattern syntax, exact values only). */
export type FilterPattern = { [key: string]: FilterPattern | (string | number | boolean)[] };

/**
 * What an area says about the stream records of one of its entities (the entity's name, and what a
 * record means, or null when it means nothing to the area): the one thing another area may ask of it.
 */
export interface StreamSource<Change> {
  entity: { name: string };
  changeOf(record: DynamoDBRecord): Change | null;
}

/** A reader of the table stream as its mapping declares it: its name, and the entities whose records it reads. */
export interface StreamReading {
  /** What it does, for the logs ("Survey summary update", "Webhook fan-out", …). */
  name: string;
  entities: readonly { name: string }[];
}

export interface StreamConsumerDefinition {
  handler: `functions/${string}.ts`;
  timeoutSeconds: number;
  /** The DynamoDB actions the function sends (as a route's `table`, lib/platform/route.ts). */
  table: readonly TableAction[];
  batchSize: number;
  maxBatchingWindowSeconds: number;
  bisectBatchOnFunctionError: boolean;
  maximumRetryAttempts: number;
  maximumRecordAgeSeconds: number;
  reportBatchItemFailures: boolean;
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** A record is handed to the function when it matches any of these. */
  filters: FilterPattern[];
  onFailure: QueueDefinition;
}

/** A table-stream mapping, declared with the readers its function runs, in the order it runs them. */
export interface TableStreamMapping extends StreamConsumerDefinition {
  readers: readonly StreamReading[];
}

/**
 * A table-stream mapping whose filter is computed from its readers' entities: a record reaches the
 * function only when its new image (INSERT, MODIFY) or its old one (REMOVE, MODIFY) is of an entity
 * one of its readers reads, so every other write (keys' rate-limit counters, delivery records, …)
 * never invokes it.
 */
export function tableStreamMapping(mapping: Omit<TableStreamMapping, 'filters'>): TableStreamMapping {
  const names = [...new Set(mapping.readers.flatMap((reader) => reader.entities.map((entity) => entity.name)))].sort();
  return {
    ...mapping,
    filters: [{ dynamodb: { NewImage: { entity: { S: names } } } }, { dynamodb: { OldImage: { entity: { S: names } } } }],
  };
}

export interface QueueConsumerDefinition {
  handler: `functions/${string}.ts`;
  timeoutSeconds: number;
  /** The DynamoDB actions the function sends (as a route's `table`, lib/platform/route.ts). */
  table: readonly TableAction[];
  queue: QueueDefinition;
  batchSize: number;
  maxBatchingWindowSeconds: number;
  maxConcurrency: number;
  reportBatchItemFailures: boolean;
}
