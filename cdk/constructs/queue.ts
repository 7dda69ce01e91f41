/** A queue as its definition (lib/platform/event-sources.ts) describes it: encrypted, TLS only, redriving where it says. */
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { QueueDefinition } from '../../lib/platform/event-sources.ts';

export function queueFrom(scope: Construct, definition: QueueDefinition, deadLetter?: Queue): Queue {
  return new Queue(scope, definition.id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
    retentionPeriod: Duration.seconds(definition.retentionSeconds),
    deadLetterQueue:
      definition.deadLetter && deadLetter ? { queue: deadLetter, maxReceiveCount: definition.deadLetter.maxReceiveCount } : undefined,
  });
}
