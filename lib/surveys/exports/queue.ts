/** Queues an export job for the writer (lib/surveys/exports/pipeline.ts). */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { meterSqsRequests } from '../../platform/tenants/meter.ts';
import { gateWrites } from '../../platform/write-gate.ts';

// Its sends wait for the rate-limit verdict, and count in the request's usage (SQS bills per request).
const sqs = meterSqsRequests(gateWrites(new SQSClient({})));

export async function queueExport(queueUrl: string, job: { workspace: string; surveyId: string; exportId: string }): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
}
