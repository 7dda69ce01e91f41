/** The periodic link check (link-check/pipeline.ts `linkCheckSchedule`): one queued check per workspace that has published articles. */
import { logger } from '../../platform/logger.ts';
import { linkCheckQueueUrl, requestLinkChecks } from '../link-check/queue.ts';
import { indexedWorkspaces } from '../search/store/segments.ts';

const queueUrl = linkCheckQueueUrl();

export async function scheduleLinkChecks(): Promise<{ queued: number }> {
  const workspaces = await indexedWorkspaces();
  await requestLinkChecks(queueUrl, workspaces);
  logger.info('link checks queued', { workspaces: workspaces.length });
  return { queued: workspaces.length };
}
