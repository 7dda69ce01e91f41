/**
 * The delivery queue's consumer (lib/webhooks/pipeline.ts): one attempt of one delivery per message
 * (lib/webhooks/commands/deliver-webhook.ts), each failed message a batch item failure.
 */
import { readQueue } from '../../lib/platform/partial-batch.ts';
import { webhookDeliveries } from '../../lib/webhooks/queue-readers.ts';

export const handler = readQueue(webhookDeliveries);
