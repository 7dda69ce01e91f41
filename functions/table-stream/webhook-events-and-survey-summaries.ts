/**
 * The table stream's reader of idea and survey-response changes (lib/webhooks/pipeline.ts has its
 * mapping, which names these readers): the survey summaries fold first, then the ideas' own fold (vote
 * ranks, merges, leftovers), then the webhook events are queued for delivery.
 */
import { ideaVoteFold } from '../../lib/ideas/stream-readers.ts';
import { readTableStream } from '../../lib/platform/partial-batch.ts';
import { surveySummaries } from '../../lib/surveys/stream-readers.ts';
import { ideaAndResponseChanges } from '../../lib/webhooks/pipeline.ts';
import { webhookEvents } from '../../lib/webhooks/stream-readers.ts';

export const handler = readTableStream(ideaAndResponseChanges, [surveySummaries, ideaVoteFold, webhookEvents]);
