/**
 * The stack's bucket emptier (cdk/constructs/private-bucket.ts): a custom resource per bucket whose
 * deletion, when the stack is deleted, empties that bucket just before CloudFormation deletes it.
 * Create and Update do nothing.
 */
import { logger } from '../../lib/platform/logger.ts';
import { answerCloudFormation, type CustomResourceEvent } from '../../lib/platform/stack/custom-resource.ts';
import { emptyBucket } from '../../lib/platform/stack/empty-bucket.ts';

export async function handler(event: CustomResourceEvent): Promise<void> {
  const bucket = String(event.ResourceProperties.BucketName);
  await answerCloudFormation(event, bucket, async () => {
    if (event.RequestType !== 'Delete') return;
    logger.info('bucket emptied before its deletion', { bucket, objects: await emptyBucket(bucket) });
  });
}
