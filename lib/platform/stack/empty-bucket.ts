/**
 * Empties a bucket so CloudFormation can delete it: S3 refuses to delete a bucket that holds
 * objects (https://docs.aws.amazon.com/AmazonS3/latest/userguide/delete-bucket.html), and a stack
 * whose bucket cannot go is left in DELETE_FAILED. Our buckets are unversioned, so deleting each
 * current object is all (a page of ≤ 1,000 keys, then one DeleteObjects of that page).
 */
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

// Path-style only against an emulator (the sandbox's fauxqs on localhost); AWS uses virtual hosts.
const s3 = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });

/** How many objects were deleted. */
export async function emptyBucket(bucket: string): Promise<number> {
  let deleted = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    const objects = (page.Contents ?? []).flatMap(({ Key }) => (Key ? [{ Key }] : []));
    if (objects.length > 0) {
      const { Errors = [] } = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
      if (Errors.length > 0)
        throw new Error(`S3 kept ${Errors.length} objects of ${bucket}, e.g. ${Errors[0]?.Key}: ${Errors[0]?.Message}`);
      deleted += objects.length;
    }
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return deleted;
}
