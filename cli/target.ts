/**
 * Where cxctl acts, from its options: the sandbox by default (DYNAMODB_PORT and SQS_PORT, or
 * `--endpoint` and AWS_ENDPOINT_URL_S3; table TABLE_NAME or cx-portal), `--table NAME` for a
 * deployed table, `--stack NAME` for a deployed stack's table and buckets (lib/admin/target.ts).
 */
import { awsTarget, sandboxTarget, type Target } from '../lib/admin/target.ts';
import { config } from '../lib/platform/config.ts';

export interface TargetOptions {
  table?: string;
  stack?: string;
  endpoint?: string;
  region?: string;
  profile?: string;
}

/** The sandbox's DynamoDB Local, where cxctl goes without --table, --stack or --endpoint: npm start's DYNAMODB_PORT. */
export const sandboxDynamoDbEndpoint = (): string => `http://127.0.0.1:${config.integer('DYNAMODB_PORT', 8000, 1)}`;

export function targetFromOptions(options: TargetOptions): Promise<Target> {
  if (options.table || options.stack) return awsTarget(options);
  return Promise.resolve(
    sandboxTarget({
      dynamodbEndpoint: options.endpoint ?? sandboxDynamoDbEndpoint(),
      s3Endpoint: process.env.AWS_ENDPOINT_URL_S3 ?? `http://127.0.0.1:${config.integer('SQS_PORT', 4566, 1)}`,
      tableName: process.env.TABLE_NAME ?? 'cx-portal',
      region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    }),
  );
}
