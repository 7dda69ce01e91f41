/**
 * A bucket of derived or short-lived data only our functions reach: S3-managed encryption, no public
 * access, owner-enforced objects, TLS only, no versioning, multipart leftovers aborted after a day,
 * and gone with the stack (what it holds is rebuilt from the table or expires anyway). `expiry` is its
 * one lifecycle rule; `why` is the true reason server access logs are not kept (cdk-nag S1).
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

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
    autoDeleteObjects: false,
  });
  Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: options.noAccessLogsBecause });
  return bucket;
}
