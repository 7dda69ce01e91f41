/**
 * Survey exports in the sandbox, as in AWS: the export bucket in fauxqs's S3 (reached through
 * AWS_ENDPOINT_URL_S3), the export queue with its dead-letter queue, and the writer on the queue
 * through the event-source-mapping emulator. Files expire in AWS by the bucket's lifecycle rule;
 * here the export records expire (their `expiresAt` is checked on read) and `.data` holds the files.
 */

import type { SQSClient } from '@aws-sdk/client-sqs';
import { SANDBOX_BUCKETS } from '../lib/admin/sandbox-buckets.ts';
import { SURVEY_EXPORT_QUEUES, surveyExportWriter } from '../lib/surveys/exports/pipeline.ts';
import { ensureBucket } from './buckets.ts';
import { type RunningEventSource, startQueueEventSource } from './event-source-mappings.ts';
import { ensureQueues } from './queues.ts';

const EXPORT_BUCKET = SANDBOX_BUCKETS.surveyExports;

export async function startSurveyExports(options: {
  s3Endpoint: string;
  sqs: SQSClient;
  sqsEndpoint: string;
  region: string;
  log?: (line: string) => void;
}): Promise<RunningEventSource> {
  await ensureBucket(options.s3Endpoint, options.region, EXPORT_BUCKET);
  const queues = await ensureQueues(options.sqs, options.sqsEndpoint, SURVEY_EXPORT_QUEUES);
  const queue = queues.get(surveyExportWriter.queue);
  if (!queue) throw new Error('The survey export queue was not created');
  // Before any handler module loads: they read these at cold start.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: options.s3Endpoint,
    SURVEY_EXPORT_BUCKET: EXPORT_BUCKET,
    SURVEY_EXPORT_QUEUE_URL: queue.url,
  });
  return startQueueEventSource({
    sqs: options.sqs,
    queueUrl: queue.url,
    queueArn: queue.arn,
    functionName: 'writeSurveyExport',
    definition: surveyExportWriter,
    log: options.log,
  });
}
