/** Messages on the export queue (lib/surveys/exports/pipeline.ts): "write this export". */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { gateWrites } from '../../platform/write-gate.ts';

const sqs = gateWrites(new SQSClient({}));

export const exportJobMessage = z.object({ workspace: z.string(), surveyId: z.string(), exportId: z.string() });
export type ExportJob = z.output<typeof exportJobMessage>;

export async function queueExport(queueUrl: string, job: ExportJob): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
}
