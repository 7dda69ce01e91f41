/**
 * One workspace's external links checked, as a link-check message asks (link-check/pipeline.ts). A
 * run that reaches its deadline queues a follow-up for the links it did not get to.
 */
import { logger } from '../../platform/logger.ts';
import { linkCheckQueueUrl, requestLinkCheck } from '../link-check/queue.ts';
import { checkWorkspaceLinks } from '../link-check/run.ts';

const queueUrl = linkCheckQueueUrl();

export async function checkLinks(workspace: string, deadline: number): Promise<void> {
  const run = await checkWorkspaceLinks(workspace, { deadline });
  logger.info('links checked', { ...run });
  if (run.remaining > 0 && run.checked > 0) await requestLinkCheck(queueUrl, workspace);
}
