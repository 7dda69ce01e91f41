/**
 * The search index of each workspace is one S3 object, `search-index/<workspace>.json.br`:
 * MiniSearch's JSON, brotli-compressed (about 4× smaller, and decompressed in a fraction of the
 * parse time), with the index format in its metadata so an object written by an older version is
 * rebuilt rather than misread. The builder writes it; search functions read it and revalidate
 * their copy with a conditional GET on its ETag.
 */

import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { config } from '../../platform/config.ts';
import { articleCount, INDEX_FORMAT, loadIndex, type SearchIndex, serialiseIndex } from './search-index.ts';

// Path-style only against an emulator (the sandbox's fauxqs on localhost); AWS uses virtual hosts.
const s3 = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });
const bucket = config.required('KB_SEARCH_BUCKET');

const PREFIX = 'search-index/';
const SUFFIX = '.json.br';

function indexObjectKey(workspace: string): string {
  return `${PREFIX}${workspace}${SUFFIX}`;
}

/** Every workspace that has an index, i.e. has published an article (the daily link check visits these). */
export async function indexedWorkspaces(): Promise<string[]> {
  const workspaces: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: PREFIX, ContinuationToken }));
    for (const { Key } of page.Contents ?? []) if (Key?.endsWith(SUFFIX)) workspaces.push(Key.slice(PREFIX.length, -SUFFIX.length));
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return workspaces;
}

export async function saveIndex(workspace: string, index: SearchIndex): Promise<{ bytes: number }> {
  const json = serialiseIndex(index);
  const body = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      // Quality 4 compresses JSON nearly as well as 11 in a small fraction of the time.
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: indexObjectKey(workspace),
      Body: body,
      ContentType: 'application/json',
      Metadata: { format: String(INDEX_FORMAT), articles: String(articleCount(index)) },
    }),
  );
  return { bytes: body.length };
}

export type FetchedIndex =
  | { kind: 'missing' }
  | { kind: 'not-modified' }
  | { kind: 'loaded'; index: SearchIndex; etag: string; bytes: number };

const isNotModified = (error: unknown) => error instanceof S3ServiceException && error.$metadata.httpStatusCode === 304;

/**
 * The workspace's index, or `not-modified` when `etag` is still current (a conditional GET: no
 * body crosses the network), or `missing` when none was built or it has an older format.
 */
export async function fetchIndex(workspace: string, etag?: string): Promise<FetchedIndex> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: indexObjectKey(workspace), IfNoneMatch: etag }));
    if (object.Metadata?.format !== String(INDEX_FORMAT) || !object.Body || !object.ETag) return { kind: 'missing' };
    const compressed = await object.Body.transformToByteArray();
    const index = loadIndex(brotliDecompressSync(compressed).toString('utf8'));
    return { kind: 'loaded', index, etag: object.ETag, bytes: compressed.length };
  } catch (error) {
    if (isNotModified(error)) return { kind: 'not-modified' };
    if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404))
      return { kind: 'missing' };
    throw error;
  }
}
