/**
 * The webhook delivery pipeline's moving parts, read by the CDK stack and the local sandbox alike
 * (as lib/platform/data/table.ts is for the table), so the two run the same settings:
 *
 *   table stream ──(filter: idea and survey-response items)──▶ table-stream reader ──▶ delivery queue ──▶ delivery ──▶ receiver
 *        │ batch failed after retries                  (webhook events; survey     │ ▲ retries are re-sent    │ attempts used up
 *        ▼                                               summaries fold first)     └─┘ with a delay           ▼
 *   fan-out failure queue                                                                             dead-letter queue
 *
 * The reader of the idea and survey-response changes is one function with two readers
 * (functions/table-stream/webhook-events-and-survey-summaries.ts): lib/surveys/stream-readers.ts
 * folds the responses into the summaries, lib/webhooks/stream-readers.ts queues the webhook events.
 * The delivery queue also redrives to the dead-letter queue after `maxReceiveCount` receives, so
 * a message the delivery function keeps failing on (a bug, DynamoDB unavailable) is parked there,
 * never dropped.
 */
import {
  consumedQueue,
  DAY_SECONDS as DAY,
  failureQueue,
  type QueueConsumerDefinition,
  tableStreamMapping,
} from '../platform/event-sources.ts';
import { surveySummaryReading } from '../surveys/stream.ts';
import { webhookEventsReading } from './events.ts';

export const webhookDeadLetterQueue = failureQueue('WebhookDeadLetterQueue', 'webhook-deliveries-dlq');

export const webhookFanOutFailureQueue = failureQueue('WebhookFanOutFailureQueue', 'webhook-fan-out-failures');

/** Delivery function timeout: a batch of deliveries runs concurrently, each at most 10 s. */
const DELIVERY_FUNCTION_TIMEOUT_SECONDS = 30;

/**
 * How long a delivery attempt holds its delivery record: longer than the function can run (so a
 * running attempt is never taken over) and shorter than the queue's visibility timeout (so a
 * message that comes back after a crash finds the lease expired and retries the attempt).
 */
export const DELIVERY_LEASE_SECONDS = 2 * DELIVERY_FUNCTION_TIMEOUT_SECONDS;

export const webhookDeliveryQueue = consumedQueue({
  id: 'WebhookDeliveryQueue',
  sandboxName: 'webhook-deliveries',
  consumerTimeoutSeconds: DELIVERY_FUNCTION_TIMEOUT_SECONDS,
  // Messages never wait longer than 15 min (longer retry waits hop), so four days is ample.
  retentionSeconds: 4 * DAY,
  deadLetter: webhookDeadLetterQueue,
  maxReceiveCount: 5,
});

export const WEBHOOK_QUEUES = [webhookDeadLetterQueue, webhookFanOutFailureQueue, webhookDeliveryQueue] as const;

/**
 * The table-stream mapping of idea and survey-response changes, and its function: the webhook events
 * (ideas, finished responses) and the survey summaries read the same records, as AWS recommends at
 * most two Lambda readers per stream shard and the search index builder is the other one
 * (lib/knowledge-bank/search/pipeline.ts). Its batching differs from the builder's (records reach
 * receivers without a batching window; 99 responses fold into one transaction), hence two mappings.
 */
export const ideaAndResponseChanges = tableStreamMapping({
  handler: 'functions/table-stream/webhook-events-and-survey-summaries.ts',
  // The survey summaries fold first, then the webhook events are queued. Every change of a survey
  // response reaches it: the summary (lib/surveys/summary/) counts partial ones, deletions and
  // erasures too, and lib/surveys/stream.ts picks the finished ones for webhooks.
  readers: [surveySummaryReading, webhookEventsReading],
  timeoutSeconds: 60,
  // The union of its readers' needs. Webhook events: the workspace, its enabled webhooks, and one new
  // delivery item per (webhook, event). Survey summaries: a version (GetItem), markers and buckets
  // (BatchGetItem) and their conditional Puts in one transaction, which also deletes a marker's legacy
  // key while migration 002 is unfinished (lib/surveys/summary/aggregator.ts).
  table: ['GetItem', 'Query', 'PutItem', 'BatchGetItem', 'DeleteItem'],
  // 99: a batch of survey responses then folds into one transaction of DynamoDB's 100 items (99
  // markers and their day bucket), so 1,000 responses cost about ten bucket writes (lib/surveys/summary/).
  batchSize: 99,
  maxBatchingWindowSeconds: 0,
  bisectBatchOnFunctionError: true,
  maximumRetryAttempts: 10,
  // The stream keeps records for 24 h; retrying older ones is pointless.
  maximumRecordAgeSeconds: DAY,
  reportBatchItemFailures: true,
  startingPosition: 'TRIM_HORIZON',
  onFailure: webhookFanOutFailureQueue,
});

/**
 * The mapping's name before it also carried survey summaries, which unit tests still import.
 * @alias
 */
export const ideaEventFanOut = ideaAndResponseChanges;

/** The queue consumer: makes one delivery attempt per message and schedules the next. */
export const webhookDelivery: QueueConsumerDefinition = {
  handler: 'functions/webhooks/deliver-webhooks.ts',
  timeoutSeconds: DELIVERY_FUNCTION_TIMEOUT_SECONDS,
  // The webhook (secret, URL), and the delivery's claim, outcome or cancellation; after a 410, the
  // webhook's disable and the Query of its waiting retries (cancelled in a transaction of UpdateItems).
  table: ['GetItem', 'UpdateItem', 'Query'],
  queue: webhookDeliveryQueue,
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 10,
  reportBatchItemFailures: true,
};
