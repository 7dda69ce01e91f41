/**
 * The webhook delivery pipeline's moving parts, read by the CDK stack and the local sandbox alike
 * (as lib/platform/data/table.ts is for the table), so the two run the same settings:
 *
 *   table stream ──(filter: idea, survey-response and webhook items)──▶ table-stream reader ──▶ delivery queue ──▶ delivery ──▶ receiver
 *        │ batch failed after retries                  (webhook events; survey     │ ▲ retries and throttled  │ attempts used up
 *        ▼                                               summaries fold first;     └─┘ ones re-sent delayed   ▼
 *   fan-out failure queue                                a disabled webhook's                           dead-letter queue
 *                                                        deliveries are held)                                 ▲
 *   POST /webhooks/{id}/recover ──▶ recovery queue ──▶ recovery step ──▶ receiver (held, failed, cancelled: once each, in order)
 *                                        ▲ next step ──────┘ (queued first)    │ a step that keeps failing ──┘
 *
 * The reader of the table stream's changes is one function with two readers
 * (functions/table-stream/webhook-events-and-survey-summaries.ts): lib/surveys/stream-readers.ts
 * folds the responses into the summaries, lib/webhooks/stream-readers.ts queues the webhook events
 * (ideas, finished responses, and a webhook's own enable and disable, lib/webhooks/lifecycle.ts).
 * The delivery and recovery queues also redrive to the dead-letter queue after `maxReceiveCount`
 * receives, so a message their function keeps failing on (a bug, DynamoDB unavailable) is parked
 * there, never dropped.
 */

import { ideaVoteFoldReading } from '../ideas/stream.ts';
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

/** Recovery function timeout: a step sends for RECOVERY_STEP_SECONDS, its last attempt at most 10 s more, then writes. */
const RECOVERY_FUNCTION_TIMEOUT_SECONDS = 40;
/** How long a step takes up and sends deliveries before it hands over to the next step. */
export const RECOVERY_STEP_SECONDS = 15;
/** How long a step holds its recovery: longer than the function can run, so a running step is never taken over. */
export const RECOVERY_LEASE_SECONDS = RECOVERY_FUNCTION_TIMEOUT_SECONDS + 5;
/**
 * A step's message comes back this soon if the step dies (it sets its visibility so as it starts):
 * after the step's lease, so the step that comes back can claim it. The queue's own visibility (six
 * times the timeout, as AWS advises for an event source) would resume a dead recovery only after 4 min.
 */
export const RECOVERY_MESSAGE_VISIBILITY_SECONDS = RECOVERY_LEASE_SECONDS + 5;
/**
 * How long a recovery's attempt holds its delivery: the POST's 10 s and the writes around it, and
 * less than the step's message takes to come back, so a step resumed after a crash finds it free.
 */
export const RECOVERY_ATTEMPT_LEASE_SECONDS = 30;

export const webhookRecoveryQueue = consumedQueue({
  id: 'WebhookRecoveryQueue',
  sandboxName: 'webhook-recoveries',
  consumerTimeoutSeconds: RECOVERY_FUNCTION_TIMEOUT_SECONDS,
  // A step waits at most 15 min (a delay), and a recovery's record outlives nothing longer than its deliveries.
  retentionSeconds: 4 * DAY,
  deadLetter: webhookDeadLetterQueue,
  maxReceiveCount: 5,
});

export const WEBHOOK_QUEUES = [webhookDeadLetterQueue, webhookFanOutFailureQueue, webhookDeliveryQueue, webhookRecoveryQueue] as const;

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
  // Issue 39: the ideas' own fold (vote ranks, merges' votes, a deleted idea's leftovers) before the events.
  readers: [surveySummaryReading, ideaVoteFoldReading, webhookEventsReading],
  timeoutSeconds: 60,
  // The union of its readers' needs. Webhook events: the workspace, its webhooks, one new delivery item
  // per (webhook, event), and a webhook's held deliveries counted in gsi1 (Query). Survey summaries: a version (GetItem), markers and buckets
  // (BatchGetItem) and their conditional Puts in one transaction, which also deletes a marker's legacy
  // key while migration 002 is unfinished (lib/surveys/summary/store/counted-markers.ts).
  // The ideas' fold: the shards (Query), the ranks (UpdateItem in a transaction), a merge's moves (BatchGetItem,
  // PutItem, UpdateItem, DeleteItem, ConditionCheckItem of the gate) and a deleted idea's leftovers (Query,
  // UpdateItem, BatchWriteItem).
  table: ['GetItem', 'Query', 'PutItem', 'BatchGetItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem', 'BatchWriteItem'],
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

/** The queue consumer: makes one delivery attempt per message and schedules the next. */
export const webhookDelivery: QueueConsumerDefinition = {
  handler: 'functions/webhooks/deliver-webhooks.ts',
  timeoutSeconds: DELIVERY_FUNCTION_TIMEOUT_SECONDS,
  // The webhook (secret, URL), the delivery's claim, outcome, hold or cancellation, a rate slot, the
  // webhook's failure streak; after a 410 or past the failure window, the Query of its waiting retries
  // and the transaction of UpdateItems that disables it and holds them.
  table: ['GetItem', 'UpdateItem', 'Query'],
  queue: webhookDeliveryQueue,
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 10,
  reportBatchItemFailures: true,
};

/**
 * The recovery consumer: one step of one recovery per message (lib/webhooks/commands/run-webhook-recovery.ts).
 * One message a batch: a step sends one delivery at a time, in event order, for its whole run.
 */
export const webhookRecovery: QueueConsumerDefinition = {
  handler: 'functions/webhooks/run-webhook-recoveries.ts',
  timeoutSeconds: RECOVERY_FUNCTION_TIMEOUT_SECONDS,
  // The step's claim and progress, the webhook's lock (UpdateItem, answering the webhook), the walk
  // (Query), its taken deliveries (BatchGetItem), each claim and result, rate slots, the webhook's
  // failure streak, and a disabling's Query and transaction; the finish's transaction of UpdateItems.
  table: ['UpdateItem', 'Query', 'BatchGetItem'],
  queue: webhookRecoveryQueue,
  batchSize: 1,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 5,
  reportBatchItemFailures: true,
};
