/**
 * The stack's bucket emptier (functions/stack/empty-bucket-on-delete.ts), invoked as CloudFormation
 * invokes a custom resource, against the sandbox's S3: on Delete it empties the bucket, more than one
 * listing page of it, then answers SUCCESS on the presigned URL; Create changes nothing; a bucket it
 * cannot empty is answered FAILED with the reason, never left unanswered (CloudFormation would wait an hour).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket } from '../../local/buckets.ts';
import { sandbox, uniqueSlug, useSandboxEnvironment } from '../support/fixtures.ts';

const s3 = new S3Client({
  endpoint: sandbox.sqsEndpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

let server: Server;
const answers: { method: string; contentType: string | undefined; body: Record<string, unknown> }[] = [];
let handler: (event: unknown) => Promise<void>;

beforeAll(async () => {
  useSandboxEnvironment({ AWS_ENDPOINT_URL_S3: sandbox.sqsEndpoint });
  handler = (await import('../../functions/stack/empty-bucket-on-delete.ts')).handler as never;
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      answers.push({ method: request.method ?? '', contentType: request.headers['content-type'], body: JSON.parse(body) });
      response.end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
});

afterAll(() => {
  server.close();
  s3.destroy();
});

function event(requestType: 'Create' | 'Delete', bucket: string) {
  return {
    RequestType: requestType,
    ResponseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/answer?signature=presigned`,
    StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/Test/1',
    RequestId: `${requestType}-${bucket}`,
    LogicalResourceId: 'SearchIndexBucketEmptier',
    ResourceProperties: { ServiceToken: 'arn:aws:lambda:…', BucketName: bucket },
  };
}

async function objectsIn(bucket: string): Promise<number> {
  let count = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    count += page.Contents?.length ?? 0;
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return count;
}

describe('the bucket emptier', () => {
  it('empties the bucket on Delete (past one listing page) and answers CloudFormation', { timeout: 120_000 }, async () => {
    const bucket = uniqueSlug('emptier');
    await ensureBucket(sandbox.sqsEndpoint, 'us-east-1', bucket);
    for (let start = 0; start < 1005; start += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, 1005 - start) }, (_, i) =>
          s3.send(new PutObjectCommand({ Bucket: bucket, Key: `search-index/ws-${(start + i) % 7}/segment-${start + i}`, Body: 'x' })),
        ),
      );
    expect(await objectsIn(bucket)).toBe(1005);

    await handler(event('Create', bucket));
    expect(await objectsIn(bucket)).toBe(1005);
    await handler(event('Delete', bucket));
    expect(await objectsIn(bucket)).toBe(0);

    const [created, deleted] = answers.filter((a) => String(a.body.RequestId).endsWith(bucket));
    for (const answer of [created, deleted]) {
      expect(answer).toMatchObject({
        method: 'PUT',
        body: { Status: 'SUCCESS', PhysicalResourceId: bucket, LogicalResourceId: 'SearchIndexBucketEmptier' },
      });
      // The presigned URL signs no content type: sending one would break its signature.
      expect(answer?.contentType ?? '').toBe('');
    }
    expect(deleted?.body.RequestId).toBe(`Delete-${bucket}`);
  });

  it('answers FAILED, with the reason, when it cannot empty the bucket', async () => {
    const bucket = uniqueSlug('missing');
    await handler(event('Delete', bucket));
    const answer = answers.find((a) => a.body.RequestId === `Delete-${bucket}`);
    expect(answer?.body).toMatchObject({ Status: 'FAILED', Reason: expect.stringMatching(/NoSuchBucket|bucket/i) });
  });
});
