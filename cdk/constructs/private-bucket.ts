/**
 * A bucket of derived or short-lived data only our functions reach: S3-managed encryption, no public
 * access, owner-enforced objects, TLS only, no versioning, multipart leftovers aborted after a day.
 * `expiry` is its one lifecycle rule; `noAccessLogsBecause` is the true reason server access logs are
 * not kept (cdk-nag S1).
 *
 * Emptied and deleted with the stack, not retained: what it holds is rebuilt from the table (search
 * indexes: `cxctl rebuild search`) or expires within a day (export files), and a retained bucket is
 * one no redeploy finds again (its name is generated). S3 refuses to delete a bucket that holds
 * objects, which left `cdk destroy` in DELETE_FAILED: so each bucket has a custom resource whose
 * deletion (just before the bucket's: it names the bucket) empties it. CDK's `autoDeleteObjects`
 * does the same with a provider whose role holds AWSLambdaBasicExecutionRole (every log group of the
 * account); ours is a HouseFunction that may write its own log group and list and delete in these
 * buckets, nothing else.
 */
import { CustomResource, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { HouseFunction } from './api-function.ts';

const EMPTIER_ID = 'BucketEmptier';

/** The stack's one emptier function, made with its first bucket. */
function emptierOf(stack: Stack): HouseFunction {
  const existing = stack.node.tryFindChild(EMPTIER_ID);
  if (existing) return existing as HouseFunction;
  return new HouseFunction(stack, EMPTIER_ID, {
    entry: 'functions/stack/empty-bucket-on-delete.ts',
    description: 'Stack: empties a bucket when the stack deletes it (S3 deletes no bucket that holds objects)',
    // A large index bucket holds tens of thousands of objects: 1,000 deleted per request.
    timeout: Duration.minutes(15),
  });
}

function emptiedOnDelete(scope: Construct, id: string, bucket: Bucket): void {
  const stack = Stack.of(bucket);
  const emptier = emptierOf(stack);
  emptier.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  emptier.addToRolePolicy(
    new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects('*')] }),
  );
  Validations.of(emptier.role ?? emptier).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(bucket.node.defaultChild as never)}.Arn>/*]`,
    reason: 'Emptying a bucket before its deletion means deleting every object in it: the bucket is the narrowest resource.',
  });
  new CustomResource(scope, `${id}Emptier`, {
    serviceToken: emptier.functionArn,
    resourceType: 'Custom::EmptyBucketOnDelete',
    properties: { BucketName: bucket.bucketName },
  });
}

export function privateBucket(
  scope: Construct,
  id: string,
  options: { expiry: { id: string; prefix: string; after: Duration }; noAccessLogsBecause: string },
): Bucket {
  const bucket = new Bucket(scope, id, {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    versioned: false,
    lifecycleRules: [
      { id: options.expiry.id, prefix: options.expiry.prefix, expiration: options.expiry.after },
      { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
    removalPolicy: RemovalPolicy.DESTROY,
  });
  Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: options.noAccessLogsBecause });
  emptiedOnDelete(scope, id, bucket);
  return bucket;
}
