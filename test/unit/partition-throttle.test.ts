/**
 * SANDBOX_PARTITION_SCALE (local/partition-throttle.ts) on a DynamoDB Local of its own: over an item's
 * or an ordered range's share, requests are answered as DynamoDB answers them (checked against the
 * SDK's own deserialisation), nothing throttled is written, and the SDK's and the data kit's retries
 * carry a write through once the partition has room again.
 */

import { randomUUID } from 'node:crypto';
import {
  BatchWriteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionThrottle } from '../../local/partition-throttle.ts';
import { startTableForUnitTests } from '../support/dynamodb-local.ts';

const TABLE = process.env.TABLE_NAME ?? 'unit-test-table';
let stopTable: () => Promise<void>;
let client: DynamoDBClient;
let throttle: PartitionThrottle;
let kit: typeof import('../../lib/platform/data/transact.ts');
let batch: typeof import('../../lib/platform/data/batch.ts');
let kitThrottle: PartitionThrottle;
/** The throttle's clock: frozen unless a test moves it, so a bucket refills only when told. */
let clock = 1_000_000;

const put = (sk: string, bytes = 10) =>
  new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'WS#throttle' }, sk: { S: sk }, text: { S: 'x'.repeat(bytes) } } });
const exists = async (sk: string) =>
  (await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'WS#throttle' }, sk: { S: sk } }, ConsistentRead: true })))
    .Item !== undefined;

beforeAll(async () => {
  const table = await startTableForUnitTests();
  stopTable = table.stop;
  const { installPartitionThrottle } = await import('../../local/partition-throttle.ts');
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
  const raw = new DynamoDBClient({ endpoint });
  // Scale 500: an item takes 2 write units a second. Its bucket holds one second of them (not the
  // default partition-second, test/unit/partition-bursts.test.ts), so a few requests spend it.
  client = new DynamoDBClient({ endpoint, maxAttempts: 2 });
  throttle = installPartitionThrottle(client, {
    scale: 500,
    raw,
    tableName: TABLE,
    region: 'us-east-1',
    accountId: '000000000000',
    now: () => clock,
    floorSeconds: 1,
  });
  // The data kit's own client, throttled on the real clock, for the retries.
  const { dynamo } = await import('../../lib/platform/data/client.ts');
  kitThrottle = installPartitionThrottle(dynamo, {
    scale: 500,
    raw,
    tableName: TABLE,
    region: 'us-east-1',
    accountId: '000000000000',
    floorSeconds: 1,
  });
  kit = await import('../../lib/platform/data/transact.ts');
  batch = await import('../../lib/platform/data/batch.ts');
}, 120_000);

afterAll(async () => {
  client?.destroy();
  await stopTable?.();
});

describe('one item over its share', () => {
  it('answers ProvisionedThroughputExceededException with its reason, and writes nothing', async () => {
    await client.send(put('HOT#1'));
    await client.send(put('HOT#1'));
    const before = throttle.throttled;
    const refused = await client.send(put('HOT#1', 20)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect((refused as ProvisionedThroughputExceededException).ThrottlingReasons).toEqual([
      { reason: 'TableWriteKeyRangeThroughputExceeded', resource: `arn:aws:dynamodb:us-east-1:000000000000:table/${TABLE}` },
    ]);
    // The SDK retried it once (maxAttempts 2): both attempts were turned away.
    expect(throttle.throttled - before).toBe(2);
    expect(
      (
        (await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'WS#throttle' }, sk: { S: 'HOT#1' } } }))).Item?.text
          ?.S ?? ''
      ).length,
    ).toBe(10);
    clock += 1000;
    await client.send(put('HOT#1', 20));
  });

  it('admits of a concurrent burst on one item what its units hold, not every request before any is charged', async () => {
    // A new item's bucket holds 2 units (one second at scale 500); six puts of one unit each arrive at
    // once, before any has run. A partition serves them one after another: two fit, four are throttled
    // (the clock is frozen, so the SDK's retry finds no more room).
    const answers = await Promise.allSettled(Array.from({ length: 6 }, () => client.send(put('BURST#1'))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(2);
    const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(refused).toHaveLength(4);
    for (const reason of refused) expect(reason).toBeInstanceOf(ProvisionedThroughputExceededException);
    clock += 1000;
  });

  it('cancels a transaction with ThrottlingError for the hot item and None for the others, writing none of them', async () => {
    await client.send(put('HOT#2'));
    await client.send(put('HOT#2'));
    const refused = await client
      .send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { pk: { S: 'WS#throttle' }, sk: { S: 'COLD#2' } } } },
            { Put: { TableName: TABLE, Item: { pk: { S: 'WS#throttle' }, sk: { S: 'HOT#2' }, n: { N: '1' } } } },
          ],
        }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TransactionCanceledException);
    expect((refused as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code)).toEqual([
      'None',
      'ThrottlingError',
    ]);
    expect(await exists('COLD#2')).toBe(false);
  });

  it('leaves the hot items of a batch unprocessed and writes the others', async () => {
    await client.send(put('HOT#3'));
    await client.send(put('HOT#3'));
    const { UnprocessedItems } = await client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [TABLE]: ['COLD#3a', 'HOT#3', 'COLD#3b'].map((sk) => ({
            PutRequest: { Item: { pk: { S: 'WS#throttle' }, sk: { S: sk }, v: { S: 'new' } } },
          })),
        },
      }),
    );
    expect(UnprocessedItems?.[TABLE]?.map((request) => request.PutRequest?.Item?.sk?.S)).toEqual(['HOT#3']);
    expect([await exists('COLD#3a'), await exists('COLD#3b')]).toEqual([true, true]);
  });

  it('answers a batch with nothing it can process as ProvisionedThroughputExceededException', async () => {
    await client.send(put('HOT#4'));
    await client.send(put('HOT#4'));
    const refused = await client
      .send(
        new BatchWriteItemCommand({
          RequestItems: { [TABLE]: [{ PutRequest: { Item: { pk: { S: 'WS#throttle' }, sk: { S: 'HOT#4' } } } }] },
        }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProvisionedThroughputExceededException);
  });
});

describe('a key range written in order', () => {
  it('is one partition: new keys at its end are throttled together, keys in random order are not', async () => {
    clock += 10_000;
    const ordered = (i: number) => `FEED#${String(1_000_000 + i)}`;
    let refusedInOrder = 0;
    for (let i = 0; i < 40; i++) {
      try {
        await client.send(put(ordered(i)));
      } catch (error) {
        if (!(error instanceof ProvisionedThroughputExceededException)) throw error;
        refusedInOrder++;
      }
    }
    // Every key is new (its own item is never over), but their range takes 2 units a second.
    expect(refusedInOrder).toBeGreaterThan(15);
    for (let i = 0; i < 40; i++) await client.send(put(`RANDOM#${randomUUID()}`));
  }, 120_000);
});

describe("the data kit's retries", () => {
  it('carries a throttled transaction through once the item has room again', async () => {
    const key = { pk: 'WS#throttle', sk: `KIT#${randomUUID()}` };
    // Three writes of an item that takes two a second: the third waits in the kit's batch retries.
    for (let n = 0; n < 3; n++) await batch.writeMany([{ ...key, n }]);
    const before = kitThrottle.throttled;
    await kit.transact({ hot: { Put: { TableName: TABLE, Item: { ...key, n: 3 } } } });
    expect(kitThrottle.throttled).toBeGreaterThan(before);
    expect(await exists(key.sk)).toBe(true);
  }, 60_000);
});
