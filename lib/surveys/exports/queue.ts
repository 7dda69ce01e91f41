/** Queues an export job for the writer (lib/surveys/exports/pipeline.ts). */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { gateWrites } from '../../platform/write-gate.ts';

const sqs = gateWrites(new SQSClient({}));

export async function queueExport(queueUrl: string, job: { workspace: string; surveyId: string; exportId: string }): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
}
