/**
 * The link checker (lib/knowledge-bank/link-check/pipeline.ts has its queue): each message names a
 * workspace whose external links to check. A message that fails is reported as a batch item
 * failure and comes back after its visibility timeout (3 receives, then the dead-letter queue).
 * A run that reaches its time budget queues a follow-up for the links it did not get to.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { CHECKER_SAFETY_MARGIN_MS } from '../../lib/knowledge-bank/link-check/pipeline.ts';
import { linkCheckMessage, linkCheckQueueUrl, requestLinkCheck } from '../../lib/knowledge-bank/link-check/queue.ts';
import { checkWorkspaceLinks } from '../../lib/knowledge-bank/link-check/run.ts';
import { logger } from '../../lib/platform/logger.ts';

const queueUrl = linkCheckQueueUrl();

async function checkLinks(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const { workspace } = linkCheckMessage.parse(JSON.parse(record.body));
      const deadline = Date.now() + context.getRemainingTimeInMillis() - CHECKER_SAFETY_MARGIN_MS;
      const run = await checkWorkspaceLinks(workspace, { deadline });
      logger.info('links checked', { ...run });
      if (run.remaining > 0 && run.checked > 0) await requestLinkCheck(queueUrl, workspace);
    } catch (error) {
      logger.error('link check failed', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export const handler = checkLinks;
