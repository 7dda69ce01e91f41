/**
 * Creates the pipeline's queues in the SQS emulator as the CDK stack defines them
 * (lib/webhooks/pipeline.ts), dead-letter queues first so redrive policies can name them.
 *
 * Queue URLs are built on the emulator's own endpoint (http://127.0.0.1:<port>/<account>/<name>):
 * fauxqs answers `http://sqs.<region>.localhost:<port>/…`, and the AWS SDK sends requests to the
 * host of a queue URL, which need not resolve everywhere. fauxqs finds a queue by the name at
 * the end of any URL, so both forms address the same queue.
 */
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  QueueNameExists,
  SetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { QueueDefinition } from '../lib/platform/event-sources.ts';

export interface LocalQueue {
  url: string;
  arn: string;
}

const ACCOUNT = '000000000000';

export async function ensureQueues(
  sqs: SQSClient,
  endpoint: string,
  definitions: readonly QueueDefinition[],
): Promise<Map<QueueDefinition, LocalQueue>> {
  const created = new Map<QueueDefinition, LocalQueue>();
  const pending = [...definitions];
  while (pending.length > 0) {
    const index = pending.findIndex((d) => !d.deadLetter || created.has(d.deadLetter.queue));
    if (index < 0) throw new Error('Queue definitions name a dead-letter queue that is not defined');
    const [definition] = pending.splice(index, 1);
    created.set(definition!, await ensureQueue(sqs, endpoint, definition!, created));
  }
  return created;
}

async function ensureQueue(
  sqs: SQSClient,
  endpoint: string,
  definition: QueueDefinition,
  created: Map<QueueDefinition, LocalQueue>,
): Promise<LocalQueue> {
  const attributes: Record<string, string> = {
    VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
    MessageRetentionPeriod: String(definition.retentionSeconds),
  };
  if (definition.deadLetter) {
    attributes.RedrivePolicy = JSON.stringify({
      deadLetterTargetArn: created.get(definition.deadLetter.queue)!.arn,
      maxReceiveCount: definition.deadLetter.maxReceiveCount,
    });
  }
  const url = `${endpoint}/${ACCOUNT}/${definition.sandboxName}`;
  try {
    await sqs.send(new CreateQueueCommand({ QueueName: definition.sandboxName, Attributes: attributes }));
  } catch (error) {
    // Kept from an earlier run (DATA_DIR) with other settings: bring it up to date.
    if (!(error instanceof QueueNameExists) && !/QueueNameExists|QueueAlreadyExists/.test((error as Error).name)) throw error;
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
  }
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return { url, arn: Attributes!.QueueArn! };
}
