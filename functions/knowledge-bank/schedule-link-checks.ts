/**
 * The daily link check (an EventBridge rule; CDK context `linkCheckSchedule` sets how often):
 * queues one check per workspace that has published articles.
 */
import { linkCheckQueueUrl, requestLinkChecks } from '../../lib/knowledge-bank/link-check/queue.ts';
import { indexedWorkspaces } from '../../lib/knowledge-bank/search/segment-store.ts';
import { logger } from '../../lib/platform/logger.ts';

const queueUrl = linkCheckQueueUrl();

async function scheduleLinkChecks(): Promise<{ queued: number }> {
  const workspaces = await indexedWorkspaces();
  await requestLinkChecks(queueUrl, workspaces);
  logger.info('link checks queued', { workspaces: workspaces.length });
  return { queued: workspaces.length };
}

export const handler = scheduleLinkChecks;
