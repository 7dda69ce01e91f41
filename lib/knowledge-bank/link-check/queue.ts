/** Messages on the link-check queue: "check this workspace's links". */
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { config } from '../../platform/config.ts';
import { meterSqsRequests } from '../../platform/tenants/meter.ts';
import { gateWrites } from '../../platform/write-gate.ts';

// Its sends wait for the rate-limit verdict, and count in the request's usage (SQS bills per request).
const sqs = meterSqsRequests(gateWrites(new SQSClient({})));

export const linkCheckMessage = z.object({ workspace: z.string().check(z.minLength(1)) });

export function linkCheckQueueUrl(): string {
  return config.required('KB_LINK_CHECK_QUEUE_URL');
}

export async function requestLinkCheck(queueUrl: string, workspace: string): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ workspace }) }));
}

export async function requestLinkChecks(queueUrl: string, workspaces: readonly string[]): Promise<void> {
  for (let start = 0; start < workspaces.length; start += 10) {
    const entries = workspaces
      .slice(start, start + 10)
      .map((workspace, i) => ({ Id: String(i), MessageBody: JSON.stringify({ workspace }) }));
    const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    if (result.Failed?.length) throw new Error(`Could not queue ${result.Failed.length} link checks`);
  }
}
