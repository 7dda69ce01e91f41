/**
 * A function that times out stops there, in the sandbox as in Lambda: its caller gets API Gateway's
 * 500 and none of its writes lands afterwards (issue 37: 53 survey responses were stored after their
 * callers got the 500, the handlers running on unseen).
 *
 * A sandbox of its own (`npm start`), every function's timeout at 0.2 s (SANDBOX_FUNCTION_TIMEOUT_SECONDS)
 * and every DynamoDB call slowed to about a second (SANDBOX_DYNAMODB_LATENCY_MS: half of it before the
 * request leaves, half after the answer). Creating an idea reads the key, then counts the request in
 * its rate-limit window, and only then writes: at the timeout the handler is still waiting for its
 * first answer (a round trip under 0.2 s is five standard deviations below the median: a few in a
 * hundred million), so its write is always still to come, and middy has not yet started the handler
 * whose early answer (5 ms before the timeout) would have come first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { type SandboxProcess, startSandboxProcess, until } from '../support/sandbox-process.ts';

const WORKSPACE = 'your-workspace';
const dataDir = mkdtempSync(join(tmpdir(), 'function-timeout-'));
let sandbox: SandboxProcess;
let table: DynamoDBDocumentClient;
let key: string;

beforeAll(async () => {
  sandbox = await startSandboxProcess(dataDir, { env: { SANDBOX_FUNCTION_TIMEOUT_SECONDS: '0.2', SANDBOX_DYNAMODB_LATENCY_MS: '1000' } });
  // The key the banner shows once, for the workspace it made.
  key = /cxk_[\w-]+/.exec(sandbox.output())?.[0] as string;
  expect(key).toBeDefined();
  table = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: sandbox.dynamodbEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}, 300_000);

afterAll(async () => {
  await sandbox?.stop();
  table?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The ideas the table holds for the workspace, read straight from DynamoDB Local (every function times out). */
async function storedIdeas(): Promise<unknown[]> {
  const { Items } = await table.send(
    new QueryCommand({
      TableName: 'cx-portal',
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :idea)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(WORKSPACE), ':idea': ideaEntity.keys.list.from },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('a function past its timeout', () => {
  it("answers API Gateway's 500 and writes nothing after it: the handler's requests are cut off", async () => {
    const res = await fetch(`${sandbox.apiUrl}/ideas`, {
      method: 'POST',
      headers: {
        'X-Service-Workspace-Host': `${WORKSPACE}.localhost`,
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ title: 'Written after its caller gave up?' }),
    });
    // API Gateway's own answer to a function error, not our envelope (docs/errors.md).
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal Server Error' });
    expect(res.headers.get('apigw-requestid')).toBeTruthy();
    expect(res.headers.get('x-request-id')).toBeNull();

    // The handler runs on (middy answers early and leaves it), but its next request after the
    // timeout is cut off, and so is every one after that: once the sandbox says so, nothing of this
    // invocation can land any more. Without the cut, its idea shows up instead.
    const cutOff = /POST \/api\/v1\/ideas: (DynamoDB \w+) cut off, sent after the function timed out/;
    await until(
      async () => cutOff.test(sandbox.output()) || (await storedIdeas()).length > 0,
      (done) => done,
      'the timed-out handler to send its next request',
      60_000,
    );
    expect(await storedIdeas(), 'an idea written after its caller got the 500').toEqual([]);
  }, 120_000);
});
