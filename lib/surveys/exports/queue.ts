/** Messages on the export queue (lib/surveys/exports/pipeline.ts): "write this export". */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { meterSqsRequests } from '../../platform/tenants/meter.ts';
import { gateWrites } from '../../platform/write-gate.ts';

// Its sends wait for the rate-limit verdict, and count in the request's usage (SQS bills per request).
const sqs = meterSqsRequests(gateWrites(new SQSClient({})));

export const exportJobMessage = z.object({ workspace: z.string(), surveyId: z.string(), exportId: z.string() });
export type ExportJob = z.output<typeof exportJobMessage>;

export async function queueExport(queueUrl: string, job: ExportJob): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
}
