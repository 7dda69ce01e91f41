/**
 * The batch retry policy (lib/platform/data/batch.ts) meets what DynamoDB Local cannot be made to
 * produce: keys and writes left unprocessed, and throttling. This is the one place a mocked client
 * stands in for the real one, for those answers only.
 */
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BATCH_RETRY, BatchIncompleteError, deleteMany, getMany, writeMany } from '../../lib/platform/data/batch.ts';
import { dynamo, tableName } from '../../lib/platform/data/client.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../../lib/platform/timeouts.ts';

const db = mockClient(dynamo);
afterEach(() => db.reset());

const key = (sk: string) => ({ pk: 'WS#acme', sk });
const fast = { baseDelayMs: 1, maxDelayMs: 2 };

function throttled() {
  return Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ProvisionedThroughputExceededException' });
}

describe('getMany', () => {
  it('asks again for what DynamoDB left unprocessed, and answers in the order asked', async () => {
    db.on(BatchGetCommand)
      .resolvesOnce({ Responses: { [tableName]: [{ ...key('B'), n: 2 }] }, UnprocessedKeys: { [tableName]: { Keys: [key('A')] } } })
      .resolvesOnce({ Responses: { [tableName]: [{ ...key('A'), n: 1 }] } });
    const items = await getMany([key('A'), key('B')], { retry: fast });
    expect(items.map((item) => item?.n)).toEqual([1, 2]);
    const calls = db.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input.RequestItems?.[tableName]?.Keys).toEqual([key('A')]);
  });

  it('retries a throttled call under the same policy', async () => {
    db.on(BatchGetCommand)
      .rejectsOnce(throttled())
      .resolvesOnce({ Responses: { [tableName]: [{ ...key('A'), n: 1 }] } });
    expect((await getMany([key('A')], { retry: fast }))[0]).toMatchObject({ n: 1 });
    expect(db.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('gives up after the attempt cap with a typed error saying what was left', async () => {
    db.on(BatchGetCommand).resolves({ UnprocessedKeys: { [tableName]: { Keys: [key('A'), key('B')] } } });
    const error = await getMany([key('A'), key('B')], { retry: { ...fast, attempts: 4 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchIncompleteError);
    expect(error).toMatchObject({ operation: 'getMany', unprocessed: 2, attempts: 4, reason: 'attempts' });
    expect(db.commandCalls(BatchGetCommand)).toHaveLength(4);
  });

  it('gives up at the deadline, however many attempts remain', async () => {
    db.on(BatchGetCommand).rejects(throttled());
    const started = Date.now();
    const error = await getMany([key('A')], { retry: { attempts: 1000, baseDelayMs: 20, maxDelayMs: 40, deadlineMs: 150 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ reason: 'deadline', unprocessed: 1 });
    expect((error as Error).cause).toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('throws any other error at once', async () => {
    db.on(BatchGetCommand).rejects(Object.assign(new Error('bad'), { name: 'ValidationException' }));
    await expect(getMany([key('A')], { retry: fast })).rejects.toMatchObject({ name: 'ValidationException' });
    expect(db.commandCalls(BatchGetCommand)).toHaveLength(1);
  });

  it("outlasts a throttled partition's spent second under its default policy, however the dice fall", async () => {
    // A partition whose units for this second are spent: throttled until a second after the first call.
    let first: number | undefined;
    db.on(BatchGetCommand).callsFake(() => {
      first ??= Date.now();
      if (Date.now() - first < 1000) throw throttled();
      return { Responses: { [tableName]: [{ ...key('A'), n: 1 }] } };
    });
    // The unluckiest dice: every wait at its shortest.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      expect((await getMany([key('A')]))[0]).toMatchObject({ n: 1 });
    } finally {
      random.mockRestore();
    }
  });

  it('keeps its default policy inside the shortest function timeout', () => {
    let worstWaitMs = 0;
    for (let attempt = 1; attempt < BATCH_RETRY.attempts; attempt++) {
      worstWaitMs += Math.min(BATCH_RETRY.maxDelayMs, BATCH_RETRY.baseDelayMs * 2 ** (attempt - 1));
    }
    expect(Math.min(worstWaitMs, BATCH_RETRY.deadlineMs)).toBeLessThan((DEFAULT_TIMEOUT_SECONDS * 1000) / 2);
  });
});

describe('writeMany and deleteMany', () => {
  it('write again only what was left unprocessed, 25 per call', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ ...key(`I#${i}`), n: i }));
    db.on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [tableName]: [{ PutRequest: { Item: items[0]! } }] } })
      .resolves({});
    await writeMany(items, { retry: fast });
    const sizes = db.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems?.[tableName]?.length);
    expect(sizes.sort()).toEqual([1, 25, 5].sort());
  });

  it('give up with a typed error when writes stay unprocessed', async () => {
    db.on(BatchWriteCommand).resolves({ UnprocessedItems: { [tableName]: [{ DeleteRequest: { Key: key('A') } }] } });
    await expect(deleteMany([key('A')], { retry: { ...fast, attempts: 3 } })).rejects.toMatchObject({
      operation: 'deleteMany',
      unprocessed: 1,
      attempts: 3,
    });
  });
});
