/** What the webhooks area reads on its delivery queue (lib/webhooks/pipeline.ts): one delivery attempt per message. */
import { config } from '../platform/config.ts';
import { MessageHandedBack, type QueueReader } from '../platform/partial-batch.ts';
import { deliverWebhook } from './commands/deliver-webhook.ts';
import { type DeliveryMessage, deliveryMessage, returnMessageAfter } from './delivery-queue.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

/** A message that arrives before its record is ready comes back this soon rather than after the visibility timeout. */
const NOT_READY_RETRY_SECONDS = 10;

/**
 * A batch's messages are delivered concurrently; a failed one stays on the queue (after five receives
 * SQS parks it in the dead-letter queue), every other one is deleted.
 */
export const webhookDeliveries: QueueReader<DeliveryMessage> = {
  name: 'Webhook delivery message',
  message: deliveryMessage,
  concurrent: true,
  async read(message, record) {
    if ((await deliverWebhook(message)) === 'not-ready') {
      await returnMessageAfter(queueUrl, record.receiptHandle, NOT_READY_RETRY_SECONDS);
      throw new MessageHandedBack();
    }
  },
};
