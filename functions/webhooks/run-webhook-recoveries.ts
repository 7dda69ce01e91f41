/**
 * The recovery queue's consumer (lib/webhooks/pipeline.ts): one step of one recovery per message
 * (lib/webhooks/commands/run-webhook-recovery.ts), a failed step's message a batch item failure.
 */
import { readQueue } from '../../lib/platform/partial-batch.ts';
import { webhookRecoveries } from '../../lib/webhooks/recovery-queue-readers.ts';

export const handler = readQueue(webhookRecoveries);
