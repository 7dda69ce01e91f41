/**
 * Streams an export file to S3 in parts, so memory holds at most one part (5 MiB, S3's smallest
 * multipart part) whatever the number of responses; a file smaller than one part is one PutObject.
 * A failed write aborts its multipart upload (the bucket's lifecycle also aborts any left after a day).
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

// Path-style addressing only against a local endpoint (the sandbox's fauxqs S3), as the search index does.
const s3 = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });

const PART_BYTES = 5 * 1024 * 1024;

export class ObjectWriter {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private uploadId: string | undefined;
  private readonly parts: { ETag: string | undefined; PartNumber: number }[] = [];
  bytes = 0;

  constructor(
    private readonly bucket: string,
    private readonly key: string,
    private readonly contentType: string,
  ) {}

  async write(text: string): Promise<void> {
    const chunk = Buffer.from(text, 'utf8');
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.bytes += chunk.length;
    if (this.buffered >= PART_BYTES) await this.flushPart();
  }

  private takeBuffer(): Buffer {
    const body = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    return body;
  }

  private async flushPart(): Promise<void> {
    if (!this.uploadId) {
      const { UploadId } = await s3.send(
        new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, ContentType: this.contentType }),
      );
      this.uploadId = UploadId;
    }
    const PartNumber = this.parts.length + 1;
    const { ETag } = await s3.send(
      new UploadPartCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId, PartNumber, Body: this.takeBuffer() }),
    );
    this.parts.push({ ETag, PartNumber });
  }

  async close(): Promise<void> {
    if (!this.uploadId) {
      await s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key, ContentType: this.contentType, Body: this.takeBuffer() }));
      return;
    }
    if (this.buffered > 0) await this.flushPart();
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  async abort(): Promise<void> {
    if (!this.uploadId) return;
    await s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId }));
  }
}

/** A link that downloads the object for `seconds`, as an attachment named `filename`. */
export function downloadUrlOf(bucket: string, key: string, filename: string, seconds: number): Promise<string> {
  return getSignedUrl(
    s3,
    new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: `attachment; filename="${filename}"` }),
    { expiresIn: seconds },
  );
}
