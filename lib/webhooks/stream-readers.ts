/**
 * What the webhooks area reads on the table stream: the changes other areas call events (an idea's,
 * lib/ideas/stream.ts; a finished survey response, lib/surveys/stream.ts) and a webhook's own enable
 * or disable (lib/webhooks/lifecycle.ts), each queued for delivery to the webhooks subscribed to it.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '../platform/logger.ts';
import { RetryFrom, type StreamReader } from '../platform/partial-batch.ts';
import { lifecycleEvent, queueEventDeliveries, type SubscriptionLookups } from './commands/queue-event-deliveries.ts';
import { eventFromStreamRecord, type WebhookEvent, webhookEventsReading } from './events.ts';
import { webhookLifecycle } from './lifecycle.ts';

/** The event a record means: another area's change as it is, a webhook's lifecycle with the count of what it holds. */
async function eventOf(record: DynamoDBRecord): Promise<WebhookEvent> {
  const event = eventFromStreamRecord(record);
  if (event) return event;
  return lifecycleEvent(webhookLifecycle.changeOf(record)!, record);
}

/** In stream order; on the first record that fails, the batch is retried from it (the ones before are done). */
export const webhookEvents: StreamReader = {
  ...webhookEventsReading,
  selects: (record) => eventFromStreamRecord(record) !== null || webhookLifecycle.changeOf(record) !== null,
  async read(records: DynamoDBRecord[]) {
    const lookups: SubscriptionLookups = new Map();
    let queued = 0;
    for (const record of records) {
      try {
        queued += await queueEventDeliveries(await eventOf(record), lookups);
      } catch (error) {
        throw new RetryFrom(record, error);
      }
    }
    logger.debug('Webhook fan-out done', { records: records.length, queued });
  },
};
