/**
 * Messages on the webhook delivery queue. A message names one delivery attempt; the delivery
 * itself (payload, status, attempts) lives in its DynamoDB record, so a message carries no
 * secret and no payload, and a duplicate or stale message is recognised by its attempt number.
 */
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { meterSqsRequests } from '../platform/tenants/meter.ts';
import { gateWrites } from '../platform/write-gate.ts';

// Its sends wait for the rate-limit verdict, and count in the request's usage (SQS bills per request).
const sqs = meterSqsRequests(gateWrites(new SQSClient({})));

/** SQS holds a message back at most 15 minutes; longer waits hop through several messages. */
const MAX_SQS_DELAY_SECONDS = 900;

export const deliveryMessage = z.object({
  workspace: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  /** The attempt this message asks for (1-based, over the delivery's whole life). */
  attempt: z.int().check(z.minimum(1)),
  /** Epoch ms before which the attempt must not be made (waits longer than one SQS delay). */
  notBefore: z.optional(z.number()),
});
export type DeliveryMessage = z.output<typeof deliveryMessage>;

/** The SQS delay that brings `message` back at its `notBefore`, or as close as one hop can. */
function delaySecondsFor(message: DeliveryMessage, now = Date.now()): number {
  if (!message.notBefore) return 0;
  return Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil((message.notBefore - now) / 1000)));
}

export async function sendDeliveryMessage(queueUrl: string, message: DeliveryMessage): Promise<void> {
  await sqs.send(
    new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delaySecondsFor(message) }),
  );
}

/** Send many messages, ten per call; throws if any could not be queued (the caller's batch is retried). */
export async function sendDeliveryMessages(queueUrl: string, messages: DeliveryMessage[]): Promise<void> {
  for (let start = 0; start < messages.length; start += 10) {
    const chunk = messages.slice(start, start + 10);
    const { Failed } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((message, i) => ({
          Id: String(i),
          MessageBody: JSON.stringify(message),
          DelaySeconds: delaySecondsFor(message),
        })),
      }),
    );
    if (Failed && Failed.length > 0) {
      throw new Error(`Could not queue ${Failed.length} webhook deliveries: ${Failed.map((f) => f.Code).join(', ')}`);
    }
  }
}

/** What the dead-letter queue receives when a delivery used up its attempts. */
export interface DeadLetter extends Omit<DeliveryMessage, 'notBefore'> {
  reason: 'attempts_exhausted';
  failedAt: string;
  lastStatus: number | null;
  lastError: string | null;
}

export async function sendDeadLetter(queueUrl: string, letter: DeadLetter): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(letter) }));
}

/** Make a received message visible again after `seconds` instead of the queue's long visibility timeout. */
export async function returnMessageAfter(queueUrl: string, receiptHandle: string, seconds: number): Promise<void> {
  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}
