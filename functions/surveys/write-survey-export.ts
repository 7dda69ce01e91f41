/**
 * The export queue's consumer (lib/surveys/exports/pipeline.ts): one export per message
 * (lib/surveys/commands/write-survey-export.ts), each failed message a batch item failure.
 */
import { readQueue } from '../../lib/platform/partial-batch.ts';
import { surveyExports } from '../../lib/surveys/queue-readers.ts';

export const handler = readQueue(surveyExports);
