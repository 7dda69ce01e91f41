/**
 * The link checker's moving parts, read by the CDK stack and the sandbox alike:
 *
 *   EventBridge (daily) ──▶ schedule ──▶ link-check queue ──▶ checker ──▶ HEAD/GET each URL
 *   POST /links/check ──────────────────▲      │ fails 3 times
 *                                               ▼
 *                                      link-check dead-letter queue
 *
 * One message asks for one workspace's check; the checker takes one at a time per instance, and
 * at most a few instances run, so the outbound traffic stays modest.
 */
import { consumedQueue, DAY_SECONDS as DAY, failureQueue, type QueueConsumerDefinition } from '../../platform/event-sources.ts';

const CHECKER_TIMEOUT_SECONDS = 900;
/** The checker stops taking new URLs this long before its timeout, to record what it found. */
export const CHECKER_SAFETY_MARGIN_MS = 60_000;

export const linkCheckDeadLetterQueue = failureQueue('LinkCheckDeadLetterQueue', 'knowledge-bank-link-checks-dlq');

export const linkCheckQueue = consumedQueue({
  id: 'LinkCheckQueue',
  sandboxName: 'knowledge-bank-link-checks',
  consumerTimeoutSeconds: CHECKER_TIMEOUT_SECONDS,
  retentionSeconds: 2 * DAY,
  deadLetter: linkCheckDeadLetterQueue,
  maxReceiveCount: 3,
});

export const linkChecker: QueueConsumerDefinition = {
  handler: 'functions/knowledge-bank/check-links.ts',
  table: ['Query', 'UpdateItem'],
  timeoutSeconds: CHECKER_TIMEOUT_SECONDS,
  queue: linkCheckQueue,
  batchSize: 1,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 2,
  reportBatchItemFailures: true,
};

export const linkCheckSchedule = {
  handler: 'functions/knowledge-bank/schedule-link-checks.ts' as const,
  timeoutSeconds: 60,
  /** CDK context `linkCheckSchedule` overrides it (an EventBridge rate or cron expression). */
  defaultExpression: 'rate(1 day)',
};

export const KNOWLEDGE_BANK_QUEUES = [linkCheckDeadLetterQueue, linkCheckQueue] as const;
