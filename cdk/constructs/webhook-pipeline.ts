/**
 * The webhook delivery pipeline (lib/webhooks/pipeline.ts holds its settings, shared with the
 * sandbox): the table stream feeds the reader of idea and survey-response changes (`fanOut`: it
 * queues webhook deliveries and folds the survey summaries) through a filtered event source mapping
 * with partial batch failures, bisect on error, bounded retries and an on-failure queue; the
 * delivery function consumes the queued deliveries with partial batch failures.
 * All queues are encrypted and refuse non-TLS access; alarms watch the dead letters, the stream
 * consumer's lag and the delivery backlog.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IAlarmAction, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDefinition } from '../../lib/platform/event-sources.ts';
import {
  ideaAndResponseChanges,
  webhookDeadLetterQueue,
  webhookDelivery,
  webhookDeliveryQueue,
  webhookFanOutFailureQueue,
  webhookRecovery,
  webhookRecoveryQueue,
} from '../../lib/webhooks/pipeline.ts';
import type { HouseFunction } from './api-function.ts';
import { consumeQueue, consumeStream, declaredFunction } from './consumers.ts';
import { queueFrom } from './queue.ts';

export interface WebhookPipelineProps {
  table: ITable;
  /** Environment every function of the stack gets. */
  environment: Record<string, string>;
  /** WEBHOOK_RETRY_DELAYS; the built-in two-day schedule when absent. */
  retryDelays?: string;
  /** WEBHOOK_DISABLE_AFTER_SECONDS of the functions that make attempts; the 5-day default when absent. */
  disableAfterSeconds?: number;
  /** Where the alarms notify, if anywhere. */
  alarmAction?: IAlarmAction;
}

export class WebhookPipeline extends Construct {
  readonly deliveryQueue: Queue;
  readonly recoveryQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly fanOutFailureQueue: Queue;
  readonly fanOut: HouseFunction;
  readonly delivery: HouseFunction;
  readonly recovery: HouseFunction;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: WebhookPipelineProps) {
    super(scope, id);

    const queue = (definition: QueueDefinition, deadLetter?: Queue) => queueFrom(this, definition, deadLetter);
    this.deadLetterQueue = queue(webhookDeadLetterQueue);
    this.fanOutFailureQueue = queue(webhookFanOutFailureQueue);
    Validations.of(this.fanOutFailureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the last stop: the on-failure destination of the stream event source mapping, watched by an alarm.',
    });
    this.deliveryQueue = queue(webhookDeliveryQueue, this.deadLetterQueue);
    this.recoveryQueue = queue(webhookRecoveryQueue, this.deadLetterQueue);

    const retryDelays: Record<string, string> = props.retryDelays ? { WEBHOOK_RETRY_DELAYS: props.retryDelays } : {};
    const failureWindow: Record<string, string> = props.disableAfterSeconds
      ? { WEBHOOK_DISABLE_AFTER_SECONDS: String(props.disableAfterSeconds) }
      : {};

    // The id stays 'FanOut': a new one would replace the function and its mapping, which would read
    // the stream again from its trim horizon (24 h of records, harmless but all of them again).
    this.fanOut = declaredFunction(this, 'FanOut', ideaAndResponseChanges, {
      description: 'Table stream (idea and survey-response changes): queues webhook deliveries, folds survey summaries',
      environment: { ...props.environment, WEBHOOK_DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl },
    });
    // Least privilege of one function with two readers: the union of what each reader sends (lib/webhooks/pipeline.ts).
    this.fanOut.useTable(props.table, ideaAndResponseChanges.table);
    this.deliveryQueue.grantSendMessages(this.fanOut);
    consumeStream(this.fanOut, props.table, ideaAndResponseChanges, this.fanOutFailureQueue);

    this.delivery = declaredFunction(this, 'Delivery', webhookDelivery, {
      description: 'Webhooks: one delivery attempt per queued message, with retries',
      environment: {
        ...props.environment,
        ...retryDelays,
        ...failureWindow,
        WEBHOOK_DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl,
        WEBHOOK_DEAD_LETTER_QUEUE_URL: this.deadLetterQueue.queueUrl,
      },
    });
    this.delivery.useTable(props.table, webhookDelivery.table, { writesUsage: true });
    this.deliveryQueue.grantSendMessages(this.delivery);
    this.deadLetterQueue.grantSendMessages(this.delivery);
    consumeQueue(this.delivery, this.deliveryQueue, webhookDelivery);

    this.recovery = declaredFunction(this, 'Recovery', webhookRecovery, {
      description: 'Webhooks: one step of a recovery per queued message (held, failed and cancelled deliveries, once each, in order)',
      environment: { ...props.environment, ...failureWindow, WEBHOOK_RECOVERY_QUEUE_URL: this.recoveryQueue.queueUrl },
    });
    this.recovery.useTable(props.table, webhookRecovery.table);
    // Each step queues the next, and shortens its own message's visibility (ChangeMessageVisibility).
    this.recoveryQueue.grantSendMessages(this.recovery);
    consumeQueue(this.recovery, this.recoveryQueue, webhookRecovery);

    const alarm = (alarmId: string, description: string, metric: IMetric, threshold: number) => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (props.alarmAction) created.addAlarmAction(props.alarmAction);
      this.alarms.push(created);
    };
    const oneMinute = Duration.minutes(1);
    alarm(
      'DeadLetterAlarm',
      'Webhook deliveries used up their attempts (or a delivery message or recovery step kept failing): see the webhook dead-letter queue',
      this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: 'Maximum' }),
      1,
    );
    alarm(
      'FanOutFailureAlarm',
      'The table-stream reader of idea and survey-response changes gave up on a batch: see the fan-out failure queue for the shard and sequence numbers',
      this.fanOutFailureQueue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: 'Maximum' }),
      1,
    );
    alarm(
      'IteratorAgeAlarm',
      'The reader of idea and survey-response changes (webhook fan-out, survey summaries) is more than 5 minutes behind the table stream',
      this.fanOut.metric('IteratorAge', { period: oneMinute, statistic: 'Maximum' }),
      5 * 60 * 1000,
    );
    alarm(
      'DeliveryBacklogAlarm',
      'A webhook delivery message has waited over 20 minutes (longer than any retry hop): deliveries are falling behind',
      this.deliveryQueue.metricApproximateAgeOfOldestMessage({ period: oneMinute, statistic: 'Maximum' }),
      20 * 60,
    );
  }
}
