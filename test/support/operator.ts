/**
 * For the operator's commands against the test run's sandbox: cxctl as a reader runs it (the pinned
 * Node, the sandbox found by DYNAMODB_PORT and SQS_PORT), a workspace's items and objects as they are
 * stored, and a wait on a condition (never a fixed sleep).
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SANDBOX_BUCKETS } from '../../lib/admin/sandbox-buckets.ts';
import { adminStore, sandbox } from './fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

export interface CxctlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a reader who has `npm start` running (here, the test run's sandbox). */
export const operatorEnvironment = (table = sandbox.tableName) => ({
  ...process.env,
  DYNAMODB_PORT: new URL(sandbox.dynamodbEndpoint).port,
  SQS_PORT: new URL(sandbox.sqsEndpoint).port,
  TABLE_NAME: table,
  WORKSPACE_DOMAIN: 'localhost',
});

export async function cxctl(args: string[], env: NodeJS.ProcessEnv = operatorEnvironment()): Promise<CxctlResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/cxctl.mjs', ...args], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export async function cxctlJson<T = any>(args: string[], env?: NodeJS.ProcessEnv): Promise<T> {
  const result = await cxctl([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`cxctl ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Every item stored under the workspace's partition key, as stored. */
export async function partitionItems(slug: string, table = sandbox.tableName): Promise<Record<string, unknown>[]> {
  const store = adminStore();
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${slug}` },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

export const s3 = new S3Client({
  endpoint: sandbox.sqsEndpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/** Key → ETag of every object under `prefix`. */
export async function objectsUnder(bucket: keyof typeof SANDBOX_BUCKETS, prefix: string): Promise<Record<string, string>> {
  const objects: Record<string, string> = {};
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: SANDBOX_BUCKETS[bucket], Prefix: prefix, ContinuationToken }));
    for (const object of page.Contents ?? []) objects[object.Key!] = object.ETag ?? '';
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return objects;
}

/** Polls `check` every 250 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
