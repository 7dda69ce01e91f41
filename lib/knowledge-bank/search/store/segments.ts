/**
 * The S3 side of a workspace's index, under `search-index/<workspace>/`: its segments
 * (`base-<uuid>.idx.br` in index-codec.ts's layout, `delta-<uuid>.json.br`; brotli-compressed, never
 * overwritten: a new key each time, so a reader can never see half of a change) and `manifest.json`, a copy of the
 * table's manifest that search functions revalidate with a conditional GET on its ETag (a 304
 * moves no body and costs no DynamoDB read).
 */
import { randomUUID } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { config } from '../../../platform/config.ts';
import { SEARCH_INDEX_PREFIX as PREFIX, searchIndexPrefixOf } from '../object-keys.ts';
import type { Manifest } from '../segments.ts';

// Path-style only against an emulator (the sandbox's fauxqs on localhost); AWS uses virtual hosts.
const s3 = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });
const bucket = config.required('KB_SEARCH_BUCKET');

const MANIFEST = 'manifest.json';

const manifestKey = (workspace: string) => `${searchIndexPrefixOf(workspace)}${MANIFEST}`;

/** Every workspace that has an index, i.e. has published an article (the daily link check visits these). */
export async function indexedWorkspaces(): Promise<string[]> {
  const workspaces: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: PREFIX, ContinuationToken }));
    for (const { Key } of page.Contents ?? [])
      if (Key?.endsWith(`/${MANIFEST}`)) workspaces.push(Key.slice(PREFIX.length, -MANIFEST.length - 1));
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return workspaces;
}

/**
 * Bases of large workspaces (10,000 bilingual articles: about 13 MB) go up in parts of this size:
 * fauxqs refuses request bodies over 11 MiB, and parts of at least 5 MiB are what S3 asks of every
 * part but the last (https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html). An upload
 * left incomplete by a failed builder is aborted by the bucket's lifecycle after a day.
 */
const PART_BYTES = 8 * 1024 * 1024;

async function putInParts(key: string, body: Uint8Array): Promise<void> {
  const { UploadId } = await s3.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: 'application/octet-stream' }),
  );
  const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
  for (let offset = 0, PartNumber = 1; offset < body.length; offset += PART_BYTES, PartNumber++) {
    const { ETag } = await s3.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body.subarray(offset, offset + PART_BYTES) }),
    );
    parts.push({ ETag, PartNumber });
  }
  await s3.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
}

/** Stores a new segment object and answers its key. */
export async function putSegment(workspace: string, kind: 'base' | 'delta', body: Uint8Array): Promise<string> {
  const key = `${searchIndexPrefixOf(workspace)}${kind}-${randomUUID()}.${kind === 'base' ? 'idx' : 'json'}.br`;
  if (body.length > PART_BYTES) await putInParts(key, body);
  else await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/octet-stream' }));
  return key;
}

const isNotFound = (error: unknown) =>
  error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
const isNotModified = (error: unknown) => error instanceof S3ServiceException && error.$metadata.httpStatusCode === 304;

/** A segment's compressed body, or null when it is gone (superseded by a merge, or expired). */
export async function getSegment(key: string): Promise<Uint8Array | null> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return object.Body ? await object.Body.transformToByteArray() : null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Segments a merge or a full build superseded. */
export async function deleteSegments(segmentKeys: readonly string[]): Promise<void> {
  for (let start = 0; start < segmentKeys.length; start += 1000)
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: segmentKeys.slice(start, start + 1000).map((Key) => ({ Key })), Quiet: true },
      }),
    );
}

export async function putManifestCopy(workspace: string, manifest: Manifest): Promise<void> {
  await s3.send(
    new PutObjectCommand({ Bucket: bucket, Key: manifestKey(workspace), Body: JSON.stringify(manifest), ContentType: 'application/json' }),
  );
}

/** The manifest copy gone: readers then build from the table (index-cache.ts) until a builder writes one. */
export async function deleteManifestCopy(workspace: string): Promise<void> {
  await deleteSegments([manifestKey(workspace)]);
}

export type FetchedManifest = { kind: 'missing' } | { kind: 'not-modified' } | { kind: 'loaded'; manifest: Manifest; etag: string };

/** The manifest copy, or `not-modified` while `etag` is current (a conditional GET), or `missing`. */
export async function fetchManifestCopy(workspace: string, etag?: string): Promise<FetchedManifest> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: manifestKey(workspace), IfNoneMatch: etag }));
    if (!object.Body || !object.ETag) return { kind: 'missing' };
    return { kind: 'loaded', manifest: JSON.parse(await object.Body.transformToString()) as Manifest, etag: object.ETag };
  } catch (error) {
    if (isNotModified(error)) return { kind: 'not-modified' };
    if (isNotFound(error)) return { kind: 'missing' };
    throw error;
  }
}
