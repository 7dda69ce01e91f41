/**
 * The table-stream consumer: each committed idea change becomes one queued delivery per enabled
 * webhook subscribed to its event kind (lib/webhooks/pipeline.ts has the event source mapping).
 *
 * Records are handled in stream order. On the first one that fails, the function reports it as
 * the batch item failure, so Lambda retries the batch from that record on (earlier records are
 * checkpointed and not repeated); after the mapping's retries, the batch goes to the on-failure
 * queue. Repeating a record is harmless: its delivery records already exist and are kept, and
 * duplicate queue messages are dropped by the delivery function.
 *
 * The same reader also feeds the survey summary's aggregator (lib/surveys/summary/aggregator.ts), so
 * the table stream keeps two readers, as AWS recommends at most two Lambda functions per shard
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.Lambda.BestPracticesWithDynamoDBStreams.html).
 * The batch's survey-response records are folded first, together (which is what keeps counter writes
 * few), except those of a workspace `cxctl workspace delete` has marked (one consistent read per such
 * workspace and batch), whose removals would otherwise write its summaries back; if that fails, the first of them is the batch item failure and the batch is retried from it,
 * which both consumers tolerate (the aggregator counts each response revision once).
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { config } from '../../lib/platform/config.ts';
import { getWorkspace, workspaceAcceptsDerivedWrites } from '../../lib/platform/data/workspaces.ts';
import { logger } from '../../lib/platform/logger.ts';
import { aggregateResponseRecords } from '../../lib/surveys/summary/aggregator.ts';
import { type ResponseRecord, responseRecordOf } from '../../lib/surveys/summary/stream-records.ts';
import { recordNewDelivery } from '../../lib/webhooks/deliveries.ts';
import { sendDeliveryMessages } from '../../lib/webhooks/delivery-queue.ts';
import { eventBody, eventFromStreamRecord, type WebhookEventType } from '../../lib/webhooks/events.ts';
import { listEnabledSubscriptions } from '../../lib/webhooks/store.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

type Subscriptions = { id: string; events: WebhookEventType[] }[];

/** Who listens in a workspace: nobody when it is gone, suspended or has the webhooks module off. */
async function subscriptionsOf(slug: string): Promise<Subscriptions> {
  const [workspace, subscriptions] = await Promise.all([getWorkspace(slug), listEnabledSubscriptions(slug)]);
  if (workspace?.status !== 'active' || workspace.disabledModules.includes('webhooks')) return [];
  return subscriptions;
}

async function fanOut(record: DynamoDBRecord, lookups: Map<string, Promise<Subscriptions>>): Promise<number> {
  const event = eventFromStreamRecord(record);
  if (!event) return 0;
  const slug = event.data.workspace;
  // One lookup per workspace per batch: a batch holds many changes of the same few workspaces.
  let lookup = lookups.get(slug);
  if (!lookup) {
    lookup = subscriptionsOf(slug);
    lookups.set(slug, lookup);
  }
  const targets = (await lookup).filter((s) => s.events.includes(event.type));
  if (targets.length === 0) return 0;

  const payload = eventBody(event);
  await Promise.all(targets.map((target) => recordNewDelivery(slug, target.id, event, payload)));
  // Queued only once every delivery record exists, so no message can arrive before its record.
  await sendDeliveryMessages(
    queueUrl,
    targets.map((target) => ({ workspace: slug, webhookId: target.id, eventId: event.id, attempt: 1 })),
  );
  return targets.length;
}

/** Only responses of workspaces that still take summaries: none of one being deleted (they go with it). */
async function countable(responses: readonly ResponseRecord[]): Promise<ResponseRecord[]> {
  const accepting = new Map<string, Promise<boolean>>();
  for (const { workspace } of responses) if (!accepting.has(workspace)) accepting.set(workspace, workspaceAcceptsDerivedWrites(workspace));
  const kept = await Promise.all(responses.map(async (response) => ((await accepting.get(response.workspace)) ? response : null)));
  return kept.filter((response): response is ResponseRecord => response !== null);
}

/** Folds the batch's survey responses into the summary; the sequence number to retry from when that fails. */
async function aggregateSurveyResponses(records: readonly DynamoDBRecord[]): Promise<string | null> {
  const responses = records.map(responseRecordOf).filter((record): record is ResponseRecord => record !== null);
  if (responses.length === 0) return null;
  try {
    const result = await aggregateResponseRecords(await countable(responses));
    logger.debug('Survey summary updated', { records: responses.length, ...result });
    return null;
  } catch (error) {
    logger.error('Survey summary update failed; the batch is retried from its first response', { error: error as Error });
    return (responses[0] as ResponseRecord).sequenceNumber;
  }
}

async function fanOutIdeaEvents(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const summaryFailedAt = await aggregateSurveyResponses(event.Records);
  const lookups = new Map<string, Promise<Subscriptions>>();
  let queued = 0;
  for (const record of event.Records) {
    // Lambda retries from the lowest failure reported: records from there on come back anyway.
    if (summaryFailedAt !== null && record.dynamodb?.SequenceNumber === summaryFailedAt) {
      return { batchItemFailures: [{ itemIdentifier: summaryFailedAt }] };
    }
    try {
      queued += await fanOut(record, lookups);
    } catch (error) {
      logger.error('Webhook fan-out failed; the batch is retried from this record', {
        error: error as Error,
        eventID: record.eventID,
        sequenceNumber: record.dynamodb?.SequenceNumber,
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  logger.debug('Webhook fan-out done', { records: event.Records.length, queued });
  return { batchItemFailures: [] };
}

export const handler = fanOutIdeaEvents;
