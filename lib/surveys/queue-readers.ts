/** What the surveys area reads on its export queue (lib/surveys/exports/pipeline.ts): one export per message. */
import type { QueueReader } from '../platform/partial-batch.ts';
import { type ExportJob, writeSurveyExport } from './commands/write-survey-export.ts';
import { surveyExportQueue } from './exports/pipeline.ts';

/** One after another; a failed message comes back, and after three receives SQS parks it in the dead-letter queue. */
export const surveyExports: QueueReader<unknown> = {
  name: 'Survey export',
  concurrent: false,
  async read(message) {
    const lastAttempt = Number(message.attributes.ApproximateReceiveCount) >= (surveyExportQueue.deadLetter?.maxReceiveCount ?? 1);
    await writeSurveyExport(JSON.parse(message.body) as ExportJob, lastAttempt);
  },
};
