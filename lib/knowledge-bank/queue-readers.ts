/** What the knowledge bank reads on its link-check queue (link-check/pipeline.ts): one workspace's links per message. */
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { QueueReader } from '../platform/partial-batch.ts';
import { checkLinks } from './commands/check-links.ts';
import { CHECKER_SAFETY_MARGIN_MS } from './link-check/pipeline.ts';
import { linkCheckMessage } from './link-check/queue.ts';

/** One after another, each until the function's time is nearly up; a failed message comes back (3 receives, then the dead-letter queue). */
export const linkChecks: QueueReader<z.output<typeof linkCheckMessage>, Context> = {
  name: 'Link check',
  message: linkCheckMessage,
  concurrent: false,
  async read({ workspace }, _record, context) {
    await checkLinks(workspace, Date.now() + context.getRemainingTimeInMillis() - CHECKER_SAFETY_MARGIN_MS);
  },
};
