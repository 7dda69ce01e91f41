/**
 * The link-check queue's consumer (lib/knowledge-bank/link-check/pipeline.ts): one workspace's
 * external links per message (lib/knowledge-bank/commands/check-links.ts), each failed message a
 * batch item failure.
 */
import { linkChecks } from '../../lib/knowledge-bank/queue-readers.ts';
import { readQueue } from '../../lib/platform/partial-batch.ts';

export const handler = readQueue(linkChecks);
