/**
 * The webhook events reader alone, without the survey summaries the deployed entry
 * (functions/table-stream/webhook-events-and-survey-summaries.ts) also folds: what
 * test/integration/webhook-guard-and-duplicates.test.ts drives directly. Deployed nowhere.
 */
import { readTableStream } from '../../lib/platform/partial-batch.ts';
import { webhookEvents } from '../../lib/webhooks/stream-readers.ts';

export const handler = readTableStream([webhookEvents]);
