/**
 * The knowledge bank's background parts in the sandbox, as in AWS: the search index bucket in
 * fauxqs's S3 (reached through AWS_ENDPOINT_URL_S3), the index builder on the table stream and the
 * link checker on its queue (both through the event-source-mapping emulator), and the daily link
 * check on a timer (`KB_LINK_CHECK_INTERVAL_SECONDS`, default one day).
 */

import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { SANDBOX_BUCKETS } from '../lib/admin/sandbox-buckets.ts';
import { KNOWLEDGE_BANK_QUEUES, linkChecker, linkCheckSchedule } from '../lib/knowledge-bank/link-check/pipeline.ts';
import { searchIndexBuilder, searchIndexFailureQueue } from '../lib/knowledge-bank/search/pipeline.ts';
import { ensureBucket } from './buckets.ts';
import { sendToQueue, startQueueEventSource, startStreamEventSource } from './event-source-mappings.ts';
import { invocationStats } from './instrumentation.ts';
import { invokeWithTimeout, loadHandler } from './lambda-runtime.ts';
import { ensureQueues } from './queues.ts';

const SEARCH_BUCKET = SANDBOX_BUCKETS.searchIndex;

export interface KnowledgeBankServices {
  linkCheckQueueUrl: string;
  stop(): Promise<void>;
}

export async function startKnowledgeBank(options: {
  s3Endpoint: string;
  sqs: SQSClient;
  sqsEndpoint: string;
  streams: DynamoDBStreamsClient;
  streamArn: string;
  region: string;
  dataDir?: string;
  log?: (line: string) => void;
}): Promise<KnowledgeBankServices> {
  await ensureBucket(options.s3Endpoint, options.region, SEARCH_BUCKET);
  const queues = await ensureQueues(options.sqs, options.sqsEndpoint, [searchIndexFailureQueue, ...KNOWLEDGE_BANK_QUEUES]);
  const checkQueue = queues.get(linkChecker.queue)!;
  // Before any handler module loads: they read these at cold start.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: options.s3Endpoint,
    KB_SEARCH_BUCKET: SEARCH_BUCKET,
    KB_LINK_CHECK_QUEUE_URL: checkQueue.url,
  });

  const builder = startStreamEventSource({
    streams: options.streams,
    streamArn: options.streamArn,
    functionName: 'buildSearchIndex',
    definition: searchIndexBuilder,
    onFailure: sendToQueue(options.sqs, queues.get(searchIndexFailureQueue)!.url),
    checkpointFile: options.dataDir && `${options.dataDir}/search-index-checkpoints.json`,
    log: options.log,
  });
  const checker = startQueueEventSource({
    sqs: options.sqs,
    queueUrl: checkQueue.url,
    queueArn: checkQueue.arn,
    functionName: 'checkLinks',
    definition: linkChecker,
    log: options.log,
  });
  const intervalSeconds = Number(process.env.KB_LINK_CHECK_INTERVAL_SECONDS ?? 86_400);
  const timer = setInterval(() => {
    loadHandler(linkCheckSchedule.handler)
      .then((handler) =>
        // Under its synthesized policy, as every function's DynamoDB requests are.
        invocationStats.run({ dynamodbCalls: 0, dynamodbCommands: [], handler: linkCheckSchedule.handler }, () =>
          invokeWithTimeout(handler, {}, 'scheduleLinkChecks', linkCheckSchedule.timeoutSeconds),
        ),
      )
      .catch((error: unknown) => options.log?.(`scheduleLinkChecks failed: ${String(error)}`));
  }, intervalSeconds * 1000);
  timer.unref();

  return {
    linkCheckQueueUrl: checkQueue.url,
    stop: async () => {
      clearInterval(timer);
      await Promise.all([builder.stop(), checker.stop()]);
    },
  };
}
