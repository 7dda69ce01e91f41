/**
 * Messages on the recovery queue. A message asks for step N of one recovery; the recovery itself
 * (its window, where its walk stands, what it took up, its counts) lives in its DynamoDB record
 * (store/recoveries.ts), so a duplicate or stale message is recognised by its step number, as a
 * delivery message is by its attempt number.
 */
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { gateWrites } from '../platform/write-gate.ts';

const sqs = gateWrites(new SQSClient({}));

export const recoveryMessage = z.object({
  workspace: z.string(),
  webhookId: z.string(),
  recoveryId: z.string(),
  /** The step this message asks for (1-based). */
  step: z.int().check(z.minimum(1)),
});
export type RecoveryMessage = z.output<typeof recoveryMessage>;

export async function sendRecoveryMessage(queueUrl: string, message: RecoveryMessage, delaySeconds = 0): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delaySeconds }));
}

/**
 * Make the message being read come back after `seconds` if it is not deleted by then: a step that
 * dies is resumed that soon, instead of after the queue's visibility timeout (six times the
 * function's timeout, as AWS advises for an event source), and a message handed back returns that soon.
 */
export async function returnRecoveryMessageAfter(queueUrl: string, receiptHandle: string, seconds: number): Promise<void> {
  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}
