/**
 * Knowledge-bank search and link checking (lib/knowledge-bank/search/pipeline.ts and
 * lib/knowledge-bank/link-check/pipeline.ts describe the moving parts):
 *   - the index bucket: private, encrypted, TLS-only, no versioning (an index is rebuilt, never
 *     restored), a lifecycle that expires indexes untouched for 400 days (a dormant workspace's
 *     search rebuilds from the table) and incomplete uploads after a day;
 *   - the builder on the table stream (article items only, partial batch failures, bisect, bounded
 *     retries, failure queue), allowed to read the table, write the segment manifest item and
 *     write and delete index segments;
 *   - the link checker on its queue, the daily schedule that fills it, and the grants of the
 *     search and link routes (read index objects; send to the link-check queue).
 */
import { type CfnElement, Duration, Names, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IAlarmAction, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { linkCheckDeadLetterQueue, linkChecker, linkCheckQueue, linkCheckSchedule } from '../../lib/knowledge-bank/link-check/pipeline.ts';
import { SEARCH_MANIFEST_ATTRIBUTES, searchIndexBuilder, searchIndexFailureQueue } from '../../lib/knowledge-bank/search/pipeline.ts';
import { checkKnowledgeBankLinks, searchKnowledgeBank } from '../../lib/knowledge-bank/search/routes.ts';
import type { QueueDefinition } from '../../lib/platform/event-sources.ts';
import type { HouseFunction } from './api-function.ts';
import { consumeQueue, consumeStream, declaredFunction } from './consumers.ts';
import { privateBucket } from './private-bucket.ts';
import { queueFrom } from './queue.ts';

export interface KnowledgeBankSearchProps {
  table: ITable;
  environment: Record<string, string>;
  /** The stack's route functions by operationId: the search and link-check routes get their grants here. */
  routeFunctions: ReadonlyMap<string, HouseFunction>;
  /** An EventBridge schedule expression for the link check; daily when absent. */
  linkCheckSchedule?: string;
  alarmAction?: IAlarmAction;
}

/**
 * A nested stack: CloudFormation allows 500 resources per stack, and one function per route
 * brings the API's stack close to that; these background parts (about 30 resources) live apart.
 */
export class KnowledgeBankSearch extends NestedStack {
  readonly bucket: Bucket;
  readonly builder: HouseFunction;
  readonly builderFailureQueue: Queue;
  readonly linkCheckQueue: Queue;
  readonly linkCheckDeadLetterQueue: Queue;
  readonly checker: HouseFunction;
  readonly scheduler: HouseFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: KnowledgeBankSearchProps) {
    super(scope, id, { description: 'Knowledge-bank search index builder, index bucket and link checker' });

    // The bucket stays in the API's stack, beside the search route that reads it.
    this.bucket = privateBucket(scope, 'KnowledgeBankSearchIndexBucket', {
      expiry: { id: 'expire-dormant-indexes', prefix: 'search-index/', after: Duration.days(400) },
      noAccessLogsBecause:
        'The bucket holds derived search indexes, rebuilt from the table; access is by IAM role only and API calls are in CloudTrail.',
    });
    const bucketEnvironment = { KB_SEARCH_BUCKET: this.bucket.bucketName };
    /**
     * Exactly these S3 actions on the index prefix. ListBucket (on that prefix only) is what makes S3
     * answer a missing index with 404 rather than 403, so "not built yet" is told from "denied".
     */
    const grantIndexes = (fn: HouseFunction, actions: Array<'s3:GetObject' | 's3:PutObject' | 's3:DeleteObject'>) => {
      if (actions.length > 0)
        fn.addToRolePolicy(
          new PolicyStatement({ effect: Effect.ALLOW, actions, resources: [this.bucket.arnForObjects('search-index/*')] }),
        );
      fn.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['s3:ListBucket'],
          resources: [this.bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': 'search-index/*' } },
        }),
      );
      // On the role: HouseFunction's role is the function's sibling, not its child.
      Validations.of(fn.role ?? fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.referenceTo(fn, this.bucket)}>/search-index/*]`,
        reason: 'Index segments of every workspace under search-index/: the prefix is the narrowest resource that names them.',
      });
    };

    const queue = (definition: QueueDefinition, deadLetter?: Queue) => queueFrom(this, definition, deadLetter);
    this.builderFailureQueue = queue(searchIndexFailureQueue);
    this.linkCheckDeadLetterQueue = queue(linkCheckDeadLetterQueue);
    for (const lastStop of [this.builderFailureQueue, this.linkCheckDeadLetterQueue])
      Validations.of(lastStop).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: 'This queue is itself the last stop (an on-failure destination or a dead-letter queue), watched by an alarm.',
      });
    this.linkCheckQueue = queue(linkCheckQueue, this.linkCheckDeadLetterQueue);

    // The builder: table stream → index objects.
    this.builder = declaredFunction(this, 'Builder', searchIndexBuilder, {
      description: "Knowledge bank: keeps each workspace's search index in S3 current from the table stream",
      memorySize: 2048,
      environment: { ...props.environment, ...bucketEnvironment },
    });
    // Its one write, the segment manifest, is granted apart: PutItem of the manifest's attributes only.
    this.builder.useTable(
      props.table,
      searchIndexBuilder.table.filter((action) => action !== 'PutItem'),
    );
    this.builder.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...SEARCH_MANIFEST_ATTRIBUTES] } },
      }),
    );
    // DeleteObject: segments a merge or a full build superseded.
    grantIndexes(this.builder, ['s3:GetObject', 's3:PutObject', 's3:DeleteObject']);
    consumeStream(this.builder, props.table, searchIndexBuilder, this.builderFailureQueue);

    // The search route reads index objects (and the table, for authorisation and the no-object fallback).
    const search = props.routeFunctions.get(searchKnowledgeBank.operationId);
    if (!search) throw new Error(`The stack has no ${searchKnowledgeBank.operationId} function`);
    search.addEnvironment('KB_SEARCH_BUCKET', this.bucket.bucketName);
    search.addEnvironment('AWS_NODEJS_CONNECTION_REUSE_ENABLED', '1');
    grantIndexes(search, ['s3:GetObject']);
    search.node.addDependency(this.bucket);

    // Link checking: on-demand route and daily schedule → queue → checker.
    const requestCheck = props.routeFunctions.get(checkKnowledgeBankLinks.operationId);
    if (!requestCheck) throw new Error(`The stack has no ${checkKnowledgeBankLinks.operationId} function`);
    requestCheck.addEnvironment('KB_LINK_CHECK_QUEUE_URL', this.linkCheckQueue.queueUrl);
    this.linkCheckQueue.grantSendMessages(requestCheck);

    this.checker = declaredFunction(this, 'LinkChecker', linkChecker, {
      description: "Knowledge bank: checks a workspace's external links (HEAD, then GET), through the outbound guard",
      environment: { ...props.environment, KB_LINK_CHECK_QUEUE_URL: this.linkCheckQueue.queueUrl },
    });
    this.checker.useTable(props.table, linkChecker.table);
    this.linkCheckQueue.grantSendMessages(this.checker);
    consumeQueue(this.checker, this.linkCheckQueue, linkChecker);

    this.scheduler = declaredFunction(this, 'LinkCheckScheduler', linkCheckSchedule, {
      description: 'Knowledge bank: queues the periodic link check of every workspace with published articles',
      environment: { ...props.environment, ...bucketEnvironment, KB_LINK_CHECK_QUEUE_URL: this.linkCheckQueue.queueUrl },
    });
    grantIndexes(this.scheduler, []);
    this.linkCheckQueue.grantSendMessages(this.scheduler);
    this.schedule = new Rule(this, 'LinkCheckSchedule', {
      description: 'Knowledge bank: periodic external link check',
      schedule: Schedule.expression(props.linkCheckSchedule ?? linkCheckSchedule.defaultExpression),
      targets: [new LambdaFunction(this.scheduler, { retryAttempts: 2 })],
    });
    this.addAlarms(props);
  }

  /** How cdk-nag names `construct`'s ARN in a policy of `user`: directly, or as a nested stack parameter. */
  private referenceTo(user: Construct, construct: Construct): string {
    const resource = construct.node.defaultChild as CfnElement;
    if (Stack.of(user) === Stack.of(construct)) return `${Stack.of(construct).getLogicalId(resource)}.Arn`;
    return `referenceto${Names.uniqueId(resource)}Arn`;
  }

  private addAlarms(props: KnowledgeBankSearchProps): void {
    const alarm = (alarmId: string, description: string, target: Queue) => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric: target.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (props.alarmAction) created.addAlarmAction(props.alarmAction);
    };
    alarm(
      'BuilderFailureAlarm',
      'The search index builder gave up on a batch: see its failure queue for the shard and sequence numbers',
      this.builderFailureQueue,
    );
    alarm(
      'LinkCheckDeadLetterAlarm',
      'A link check failed three times: see the link-check dead-letter queue',
      this.linkCheckDeadLetterQueue,
    );
  }
}
