/** What the surveys area reads on its export queue (lib/surveys/exports/pipeline.ts): one export per message. */
import type { QueueReader } from '../platform/partial-batch.ts';
import { writeSurveyExport } from './commands/write-survey-export.ts';
import { surveyExportQueue } from './exports/pipeline.ts';
import { type ExportJob, exportJobMessage } from './exports/queue.ts';

/** One after another; a failed message comes back, and after three receives SQS parks it in the dead-letter queue. */
export const surveyExports: QueueReader<ExportJob> = {
  name: 'Survey export',
  message: exportJobMessage,
  concurrent: false,
  async read(job, record) {
    const lastAttempt = Number(record.attributes.ApproximateReceiveCount) >= (surveyExportQueue.deadLetter?.maxReceiveCount ?? 1);
    await writeSurveyExport(job, lastAttempt);
  },
};
