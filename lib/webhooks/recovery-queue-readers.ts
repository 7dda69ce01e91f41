/**
 * What the webhooks area reads on its recovery queue (lib/webhooks/pipeline.ts): one step of one
 * recovery per message. Apart from queue-readers.ts so the recovery function loads none of the
 * delivery function's configuration (its queues), and the delivery function none of this.
 */
import { config } from '../platform/config.ts';
import { MessageHandedBack, type QueueReader } from '../platform/partial-batch.ts';
import { runWebhookRecovery } from './commands/run-webhook-recovery.ts';
import { RECOVERY_MESSAGE_VISIBILITY_SECONDS } from './pipeline.ts';
import { type RecoveryMessage, recoveryMessage, returnRecoveryMessageAfter } from './recovery-queue.ts';

const queueUrl = config.webhookRecoveryQueueUrl();

/**
 * One step at a time. As a step starts, its message is made to come back soon should the step die
 * (instead of after the queue's long visibility timeout); a step that must wait hands it back.
 */
export const webhookRecoveries: QueueReader<RecoveryMessage> = {
  name: 'Webhook recovery step',
  message: recoveryMessage,
  concurrent: false,
  async read(message, record) {
    await returnRecoveryMessageAfter(queueUrl, record.receiptHandle, RECOVERY_MESSAGE_VISIBILITY_SECONDS);
    const verdict = await runWebhookRecovery(message);
    if (verdict !== 'done') {
      await returnRecoveryMessageAfter(queueUrl, record.receiptHandle, verdict.later);
      throw new MessageHandedBack();
    }
  },
};
