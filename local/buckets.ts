/** A bucket in the sandbox's S3 (fauxqs), created once; an existing one is fine (a restarted sandbox keeps its data). */
import { BucketAlreadyOwnedByYou, CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export async function ensureBucket(endpoint: string, region: string, bucket: string): Promise<void> {
  const s3 = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if (!(error instanceof BucketAlreadyOwnedByYou) && (error as { name?: string }).name !== 'BucketAlreadyExists') throw error;
  } finally {
    s3.destroy();
  }
}

/** One object, its bucket created when missing. */
export async function putObject(endpoint: string, region: string, at: { bucket: string; key: string }, body: string): Promise<void> {
  await ensureBucket(endpoint, region, at.bucket);
  const s3 = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await s3.send(new PutObjectCommand({ Bucket: at.bucket, Key: at.key, Body: body, ContentType: 'application/json' }));
  } finally {
    s3.destroy();
  }
}
