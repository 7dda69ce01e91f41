/**
 * The export pipeline, read by the CDK stack and the sandbox alike:
 *
 *   POST /surveys/{id}/exports ──▶ export record (queued) + export queue ──▶ writer ──▶ S3: survey-exports/…
 *                                                            │ 3 receives                 ▲ presigned GET (15 min)
 *                                                            ▼                            │
 *                                                   export dead-letter queue    GET /surveys/{id}/exports/{exportId}
 */
import { consumedQueue, DAY_SECONDS as DAY, failureQueue, type QueueConsumerDefinition } from '../../platform/event-sources.ts';

/** Files and their records expire a day after the export was asked for (the bucket's lifecycle rule too). */
export const EXPORT_LIFETIME_SECONDS = 86_400;

/** 100,000 responses write in well under this (README, Survey exports); the file and record live 24 h. */
const WRITER_TIMEOUT_SECONDS = 300;

export const surveyExportDeadLetterQueue = failureQueue('SurveyExportDeadLetterQueue', 'survey-exports-dlq');

export const surveyExportQueue = consumedQueue({
  id: 'SurveyExportQueue',
  sandboxName: 'survey-exports',
  consumerTimeoutSeconds: WRITER_TIMEOUT_SECONDS,
  // A job not written within a day has outlived its record.
  retentionSeconds: DAY,
  deadLetter: surveyExportDeadLetterQueue,
  maxReceiveCount: 3,
});

export const SURVEY_EXPORT_QUEUES = [surveyExportDeadLetterQueue, surveyExportQueue] as const;

export const surveyExportWriter: QueueConsumerDefinition = {
  handler: 'functions/surveys/write-survey-export.ts',
  timeoutSeconds: WRITER_TIMEOUT_SECONDS,
  // The export record (GetItem is not needed: the claim returns it), the survey and its versions, the responses.
  table: ['UpdateItem', 'BatchGetItem', 'GetItem', 'Query'],
  queue: surveyExportQueue,
  batchSize: 1,
  maxBatchingWindowSeconds: 0,
  // Each writer holds at most one 5 MiB part: a few at once keep the table's read rate modest.
  maxConcurrency: 2,
  reportBatchItemFailures: true,
};
