/**
 * Background functions as their declarations state them (lib/platform/event-sources.ts, read by the
 * sandbox's emulator too): the handler and its timeout, and the event source mapping's batch settings.
 * Copied from the declaration in one place, so no construct maps a setting by hand and another forgets it.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { QueueConsumerDefinition, StreamConsumerDefinition } from '../../lib/platform/event-sources.ts';
import { HouseFunction, type HouseFunctionProps } from './api-function.ts';

/** What every background function declares of itself (a stream or queue consumer, a scheduled function). */
type DeclaredFunction = Pick<QueueConsumerDefinition, 'handler' | 'timeoutSeconds'>;

/** The function `declared` names, with its timeout; `props` say the rest (description, environment, memory). */
export function declaredFunction(
  scope: Construct,
  id: string,
  declared: DeclaredFunction,
  props: Omit<HouseFunctionProps, 'entry' | 'timeout'>,
): HouseFunction {
  return new HouseFunction(scope, id, { ...props, entry: declared.handler, timeout: Duration.seconds(declared.timeoutSeconds) });
}

/** No window is CloudFormation's default: the property is left out rather than set to zero. */
const batchingWindow = (seconds: number) => (seconds > 0 ? Duration.seconds(seconds) : undefined);

/** Hands `fn` the table's stream as `consumer` declares, the batches that keep failing to `onFailure`. */
export function consumeStream(fn: HouseFunction, table: ITable, consumer: StreamConsumerDefinition, onFailure: Queue): void {
  Validations.of(fn.role ?? fn).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'The stream event source mapping needs dynamodb:ListStreams, which takes no resource narrower than *; stream reads are granted on the table stream only.',
  });
  fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition[consumer.startingPosition],
      batchSize: consumer.batchSize,
      maxBatchingWindow: batchingWindow(consumer.maxBatchingWindowSeconds),
      bisectBatchOnError: consumer.bisectBatchOnFunctionError,
      retryAttempts: consumer.maximumRetryAttempts,
      maxRecordAge: Duration.seconds(consumer.maximumRecordAgeSeconds),
      reportBatchItemFailures: consumer.reportBatchItemFailures,
      // One batch per shard at a time: every item of a workspace shares a partition key, so its changes
      // are handled in order (a workspace's search index updates never race).
      parallelizationFactor: 1,
      filters: consumer.filters.map((pattern) => FilterCriteria.filter(pattern)),
      onFailure: new SqsDlq(onFailure),
    }),
  );
}

/** Hands `fn` the queue's messages as `consumer` declares. */
export function consumeQueue(fn: HouseFunction, queue: Queue, consumer: QueueConsumerDefinition): void {
  fn.addEventSource(
    new SqsEventSource(queue, {
      batchSize: consumer.batchSize,
      maxBatchingWindow: batchingWindow(consumer.maxBatchingWindowSeconds),
      maxConcurrency: consumer.maxConcurrency,
      reportBatchItemFailures: consumer.reportBatchItemFailures,
    }),
  );
}
