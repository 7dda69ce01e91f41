/**
 * Survey exports (lib/surveys/exports/pipeline.ts describes the moving parts):
 *   - the export bucket: private, encrypted, TLS-only, no versioning; a lifecycle rule deletes every
 *     file a day after it was written (the export record's TTL is the same day) and aborts
 *     incomplete multipart uploads after a day;
 *   - the export queue (with its dead-letter queue) and the writer on it, allowed to read the table
 *     and to put objects under `survey-exports/` only;
 *   - the grants of the two routes: the create route sends to the queue, the read route signs
 *     download links, which work only because its role may GetObject under that prefix.
 */
import { type CfnElement, Duration, Names, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  EXPORT_LIFETIME_SECONDS,
  surveyExportDeadLetterQueue,
  surveyExportQueue,
  surveyExportWriter,
} from '../../lib/surveys/exports/pipeline.ts';
import { createSurveyExport, getSurveyExport } from '../../lib/surveys/exports/routes.ts';
import type { HouseFunction } from './api-function.ts';
import { consumeQueue, declaredFunction } from './consumers.ts';
import { privateBucket } from './private-bucket.ts';
import { queueFrom } from './queue.ts';

const PREFIX = 'survey-exports/';

export interface SurveyExportsProps {
  table: ITable;
  environment: Record<string, string>;
  /** The stack's route functions by operationId: the export routes get their grants here. */
  routeFunctions: ReadonlyMap<string, HouseFunction>;
}

/** A nested stack, as the knowledge bank's background parts are: the API's stack is near CloudFormation's 500 resources. */
export class SurveyExports extends NestedStack {
  readonly bucket: Bucket;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly writer: HouseFunction;

  constructor(scope: Construct, id: string, props: SurveyExportsProps) {
    super(scope, id, { description: 'Survey exports: export queue, writer and export bucket' });

    // The bucket stays in the API's stack, beside the routes that sign its links.
    this.bucket = privateBucket(scope, 'SurveyExportBucket', {
      expiry: { id: 'expire-exports', prefix: PREFIX, after: Duration.seconds(EXPORT_LIFETIME_SECONDS) },
      noAccessLogsBecause:
        'Export files live a day and are reached only by presigned links of IAM-authorised routes; API calls are in CloudTrail.',
    });

    this.deadLetterQueue = queueFrom(this, surveyExportDeadLetterQueue);
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the last stop: the dead-letter queue of the export queue.',
    });
    this.queue = queueFrom(this, surveyExportQueue, this.deadLetterQueue);

    const grantObjects = (fn: HouseFunction, actions: string[]) => {
      fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions, resources: [this.bucket.arnForObjects(`${PREFIX}*`)] }));
      Validations.of(fn.role ?? fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.referenceTo(fn, this.bucket)}>/${PREFIX}*]`,
        reason: 'One object per export under survey-exports/<workspace>/<survey>/: the prefix is the narrowest resource that names them.',
      });
    };

    this.writer = declaredFunction(this, 'Writer', surveyExportWriter, {
      description: "Surveys: writes an export's responses to a CSV or JSON Lines file in S3, streaming",
      memorySize: 512,
      environment: { ...props.environment, SURVEY_EXPORT_BUCKET: this.bucket.bucketName },
    });
    this.writer.useTable(props.table, surveyExportWriter.table, { writesUsage: true });
    grantObjects(this.writer, ['s3:PutObject', 's3:AbortMultipartUpload']);
    consumeQueue(this.writer, this.queue, surveyExportWriter);

    const create = props.routeFunctions.get(createSurveyExport.operationId);
    const read = props.routeFunctions.get(getSurveyExport.operationId);
    if (!create || !read) throw new Error('The stack has no survey export route functions');
    create.addEnvironment('SURVEY_EXPORT_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(create);
    read.addEnvironment('SURVEY_EXPORT_BUCKET', this.bucket.bucketName);
    grantObjects(read, ['s3:GetObject']);
  }

  /** How cdk-nag names `construct`'s ARN in a policy of `user`: directly, or as a nested stack parameter. */
  private referenceTo(user: Construct, construct: Construct): string {
    const resource = construct.node.defaultChild as CfnElement;
    if (Stack.of(user) === Stack.of(construct)) return `${Stack.of(construct).getLogicalId(resource)}.Arn`;
    return `referenceto${Names.uniqueId(resource)}Arn`;
  }
}
