/** What the knowledge bank reads on its link-check queue (link-check/pipeline.ts): one workspace's links per message. */
import type { Context } from 'aws-lambda';
import type { QueueReader } from '../platform/partial-batch.ts';
import { checkLinks } from './commands/check-links.ts';
import { CHECKER_SAFETY_MARGIN_MS } from './link-check/pipeline.ts';
import { linkCheckMessage } from './link-check/queue.ts';

/** One after another, each until the function's time is nearly up; a failed message comes back (3 receives, then the dead-letter queue). */
export const linkChecks: QueueReader<Context> = {
  name: 'Link check',
  concurrent: false,
  async read(message, context) {
    const { workspace } = linkCheckMessage.parse(JSON.parse(message.body));
    await checkLinks(workspace, Date.now() + context.getRemainingTimeInMillis() - CHECKER_SAFETY_MARGIN_MS);
  },
};
