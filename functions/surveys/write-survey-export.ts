/**
 * The export queue's consumer (lib/surveys/exports/pipeline.ts): one export per message. A message
 * seen again (a redelivery) whose export is already done or failed is dropped; a write that fails
 * is reported as the batch item failure, so SQS redelivers it and, after three receives, parks it
 * in the dead-letter queue; the export is then marked failed on its last attempt.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { config } from '../../lib/platform/config.ts';
import { logger } from '../../lib/platform/logger.ts';
import { surveyExportQueue } from '../../lib/surveys/exports/pipeline.ts';
import { claimExport, settleExport } from '../../lib/surveys/exports/store.ts';
import { writeExportFile } from '../../lib/surveys/exports/writer.ts';

const bucket = config.surveyExportBucket();

interface ExportMessage {
  workspace: string;
  surveyId: string;
  exportId: string;
}

async function writeOne(record: SQSRecord): Promise<void> {
  const { workspace, surveyId, exportId } = JSON.parse(record.body) as ExportMessage;
  const claimed = await claimExport(workspace, surveyId, exportId);
  if (!claimed) return;
  try {
    const { rows, bytes } = await writeExportFile(claimed, bucket);
    await settleExport(workspace, surveyId, exportId, { state: 'done', rows, bytes });
    logger.info('Survey export written', { exportId, rows, bytes });
  } catch (error) {
    const lastAttempt = Number(record.attributes.ApproximateReceiveCount) >= (surveyExportQueue.deadLetter?.maxReceiveCount ?? 1);
    if (lastAttempt) await settleExport(workspace, surveyId, exportId, { state: 'failed' });
    throw error;
  }
}

async function writeSurveyExports(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await writeOne(record);
    } catch (error) {
      logger.error('Survey export failed; SQS redelivers it', { error: error as Error, messageId: record.messageId });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}

export const handler = writeSurveyExports;
