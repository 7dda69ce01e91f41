/**
 * The data kit (lib/platform/data/) against a real DynamoDB Local: named transactions, the
 * remembered response of a create, batches, the allow-listed update builder and the counted list walk.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTableForUnitTests } from '../support/dynamodb-local.ts';

// Real round trips to a JVM: a busy machine (the unit default is 5 s) must not fail them.
vi.setConfig({ testTimeout: 60_000 });

let local: { stop(): Promise<void> };
let kit: {
  transact: typeof import('../../lib/platform/data/transact.ts');
  batch: typeof import('../../lib/platform/data/batch.ts');
  update: typeof import('../../lib/platform/data/update.ts');
  walk: typeof import('../../lib/platform/data/list-walk.ts');
  conditionalUpdate: typeof import('../../lib/platform/data/conditional-update.ts');
  idempotency: typeof import('../../lib/platform/data/idempotency.ts');
  client: typeof import('../../lib/platform/data/client.ts');
  lib: typeof import('@aws-sdk/lib-dynamodb');
};

beforeAll(async () => {
  local = await startTableForUnitTests();
  // Imported after the endpoint is set: the client is created when its module loads.
  kit = {
    transact: await import('../../lib/platform/data/transact.ts'),
    batch: await import('../../lib/platform/data/batch.ts'),
    update: await import('../../lib/platform/data/update.ts'),
    walk: await import('../../lib/platform/data/list-walk.ts'),
    conditionalUpdate: await import('../../lib/platform/data/conditional-update.ts'),
    idempotency: await import('../../lib/platform/data/idempotency.ts'),
    client: await import('../../lib/platform/data/client.ts'),
    lib: await import('@aws-sdk/lib-dynamodb'),
  };
}, 120_000);

afterAll(async () => {
  await local?.stop();
});

let counter = 0;
/** A partition of its own per test: tests never see each other's items. */
const partition = () => `WS#kit-${Date.now()}-${counter++}`;

async function read(key: { pk: string; sk: string }) {
  const { Item } = await kit.client.dynamo.send(
    new kit.lib.GetCommand({ TableName: kit.client.tableName, Key: key, ConsistentRead: true }),
  );
  return Item;
}

function put(item: Record<string, unknown>, condition?: string) {
  return { Put: { TableName: kit.client.tableName, Item: item, ...(condition ? { ConditionExpression: condition } : {}) } };
}

describe('transact', () => {
  it('writes every named item, leaving out the ones given as false', async () => {
    const pk = partition();
    await kit.transact.transact({ first: put({ pk, sk: 'A', n: 1 }), skipped: false, second: put({ pk, sk: 'B', n: 2 }) });
    expect(await read({ pk, sk: 'A' })).toMatchObject({ n: 1 });
    expect(await read({ pk, sk: 'B' })).toMatchObject({ n: 2 });
  });

  it('names the items whose conditions failed, with their current values unmarshalled, and writes nothing', async () => {
    const pk = partition();
    await kit.transact.transact({ seed: put({ pk, sk: 'TAKEN', version: 4, tags: new Set(['x']), nested: { a: [1, 'b'] } }) });
    const error = await kit.transact
      .transact({
        fresh: put({ pk, sk: 'FRESH' }, 'attribute_not_exists(pk)'),
        taken: put({ pk, sk: 'TAKEN' }, 'attribute_not_exists(pk)'),
        missing: {
          Update: {
            TableName: kit.client.tableName,
            Key: { pk, sk: 'NOWHERE' },
            UpdateExpression: 'SET n = :n',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':n': 1 },
          },
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(kit.transact.TransactionCancelledError);
    const cancelled = error as InstanceType<typeof kit.transact.TransactionCancelledError>;
    expect(cancelled.failedNames).toEqual(['taken', 'missing']);
    expect(cancelled.failed('fresh')).toBe(false);
    expect(cancelled.current('fresh')).toBeNull();
    expect(cancelled.current('taken')).toEqual({ pk, sk: 'TAKEN', version: 4, tags: new Set(['x']), nested: { a: [1, 'b'] } });
    expect(cancelled.current('missing')).toBeUndefined();
    expect(await read({ pk, sk: 'FRESH' })).toBeUndefined();
  });

  it('throws what is not a failed condition as DynamoDB gave it', async () => {
    const pk = partition();
    // Two writes to one item in one transaction: a ValidationException, not a cancellation.
    const error = await kit.transact.transact({ a: put({ pk, sk: 'SAME' }), b: put({ pk, sk: 'SAME' }) }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(kit.transact.TransactionCancelledError);
    expect((error as Error).name).toBe('ValidationException');
  });
});

describe('createOnce', () => {
  const request = (fingerprint: string) => ({ key: 'retry-me', scope: 'POST /things', fingerprint });

  it('replays the first response to a retry, refuses another request under the key, and writes once', async () => {
    const workspace = `kit-${Date.now()}-${counter++}`;
    const pk = `WS#${workspace}`;
    const first = await kit.idempotency.createOnce(
      workspace,
      { thing: put({ pk, sk: 'THING#1' }, 'attribute_not_exists(pk)') },
      { id: 1 },
      request('f'),
    );
    expect(first).toEqual({ response: { id: 1 }, replayed: false });
    const again = await kit.idempotency.createOnce(
      workspace,
      { thing: put({ pk, sk: 'THING#2' }, 'attribute_not_exists(pk)') },
      { id: 2 },
      request('f'),
    );
    expect(again).toEqual({ response: { id: 1 }, replayed: true });
    expect(await read({ pk, sk: 'THING#2' })).toBeUndefined();
    const other = await kit.idempotency
      .createOnce(workspace, { thing: put({ pk, sk: 'THING#3' }) }, { id: 3 }, request('g'))
      .catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 409, code: 'idempotency_key_reused' });
  });

  it("hands other failed conditions back by the caller's names", async () => {
    const workspace = `kit-${Date.now()}-${counter++}`;
    const pk = `WS#${workspace}`;
    await kit.transact.transact({ seed: put({ pk, sk: 'SLUG#taken', id: 'a' }) });
    const error = await kit.idempotency
      .createOnce(workspace, { slug: put({ pk, sk: 'SLUG#taken' }, 'attribute_not_exists(pk)') }, {}, request('f'))
      .catch((e: unknown) => e);
    expect((error as InstanceType<typeof kit.transact.TransactionCancelledError>).failedNames).toEqual(['slug']);
    expect((error as InstanceType<typeof kit.transact.TransactionCancelledError>).current('slug')).toMatchObject({ id: 'a' });
  });
});

describe('getMany, writeMany, deleteMany', () => {
  it('writes, reads in the order asked (undefined where absent) and deletes more than one batch of items', async () => {
    const pk = partition();
    const items = Array.from({ length: 130 }, (_, i) => ({ pk, sk: `ITEM#${String(i).padStart(3, '0')}`, n: i, secret: 's' }));
    await kit.batch.writeMany(items);
    const keys = [{ pk, sk: 'ITEM#129' }, { pk, sk: 'NONE' }, ...items.map(({ pk, sk }) => ({ pk, sk })), { pk, sk: 'ITEM#129' }];
    const found = await kit.batch.getMany(keys, { attributes: ['n'] });
    expect(found).toHaveLength(keys.length);
    expect(found[0]).toEqual({ pk, sk: 'ITEM#129', n: 129 });
    expect(found[1]).toBeUndefined();
    expect(found.slice(2, -1).map((item) => item?.n)).toEqual(items.map((item) => item.n));
    expect(found.at(-1)).toEqual(found[0]);
    await kit.batch.deleteMany(items.map(({ pk, sk }) => ({ pk, sk })));
    expect((await kit.batch.getMany(keys)).every((item) => item === undefined)).toBe(true);
  });

  it('reads nothing for no keys', async () => {
    expect(await kit.batch.getMany([])).toEqual([]);
  });
});

describe('update builder', () => {
  it('writes only allow-listed fields, removes nulls, and keeps its placeholders apart from the condition', async () => {
    const pk = partition();
    await kit.transact.transact({
      seed: put({ pk, sk: 'REC', version: 1, name: 'old', note: 'drop me', role: 'user', maps: { d1: { name: 'x' } } }),
    });
    // What a client sent: `role` and `pk` are not in the allow-list and must never reach the expression.
    const body = { name: 'new', note: null, role: 'admin', pk: 'WS#other' } as Record<string, unknown>;
    const parts = kit.update
      .update()
      .increment('version')
      .set('updatedAt', 'now')
      .patch(body, ['name', 'note', 'colour'])
      .patch({ name: 'y', font: 'serif' }, ['name', 'font'], { under: ['maps', 'd1'] })
      .add('count', 2)
      .build({ expression: 'attribute_exists(pk) AND #version = :v', names: { '#version': 'version' }, values: { ':v': 1 } });
    expect(JSON.stringify(parts)).not.toMatch(/role|admin|WS#other/);
    const { Attributes } = await kit.client.dynamo.send(
      new kit.lib.UpdateCommand({ TableName: kit.client.tableName, Key: { pk, sk: 'REC' }, ...parts, ReturnValues: 'ALL_NEW' }),
    );
    expect(Attributes).toEqual({
      pk,
      sk: 'REC',
      version: 2,
      name: 'new',
      role: 'user',
      updatedAt: 'now',
      count: 2,
      maps: { d1: { name: 'y', font: 'serif' } },
    });
  });

  it('adds members to a set and deletes them, and adds to a counter through counterAdd', async () => {
    const pk = partition();
    const key = { pk, sk: 'REC' };
    const send = (parts: object) =>
      kit.client.dynamo.send(new kit.lib.UpdateCommand({ TableName: kit.client.tableName, Key: key, ...parts, ReturnValues: 'ALL_NEW' }));
    await send(
      kit.update
        .update()
        .add('pairedBy', new Set(['a', 'b']))
        .build(),
    );
    const { Attributes } = await send(
      kit.update
        .update()
        .deleteFromSet('pairedBy', new Set(['a']))
        .build(),
    );
    expect(Attributes?.pairedBy).toEqual(new Set(['b']));
    // DynamoDB removes a set left empty.
    const emptied = await send(
      kit.update
        .update()
        .deleteFromSet('pairedBy', new Set(['b']))
        .set('touched', true)
        .build(),
    );
    expect(emptied.Attributes).toEqual({ pk, sk: 'REC', touched: true });
    await kit.transact.transact({ counter: kit.transact.counterAdd(key, 'count', 3, { entity: 'Counter' }) });
    await kit.transact.transact({
      counter: kit.transact.counterAdd(key, 'count', -1, { condition: { expression: 'attribute_exists(pk)' } }),
    });
    expect(await read(key)).toEqual({ pk, sk: 'REC', touched: true, entity: 'Counter', count: 2 });
    await expect(
      kit.transact.transact({
        counter: kit.transact.counterAdd({ pk, sk: 'NONE' }, 'count', 1, { condition: { expression: 'attribute_exists(pk)' } }),
      }),
    ).rejects.toThrow(/counter ConditionalCheckFailed/);
  });

  it('updateItem answers the item as written, or the item as it stood when its condition failed', async () => {
    const pk = partition();
    await kit.transact.transact({ seed: put({ pk, sk: 'REC', status: 'draft', version: 1 }) });
    const step = (sk: string, from: string, to: string) => {
      const changed = kit.update.update().set('status', to).increment('version');
      return {
        TableName: kit.client.tableName,
        Key: { pk, sk },
        ...changed.build({ expression: `${changed.placeholder('status')} = :from`, values: { ':from': from } }),
      };
    };
    const written = await kit.conditionalUpdate.updateItem(step('REC', 'draft', 'review'));
    expect(written).toEqual({ written: { pk, sk: 'REC', status: 'review', version: 2 } });
    const refused = await kit.conditionalUpdate.updateItem(step('REC', 'draft', 'review'));
    expect(refused).toEqual({ refused: { current: { pk, sk: 'REC', status: 'review', version: 2 } } });
    const absent = await kit.conditionalUpdate.updateItem(step('NONE', 'draft', 'review'));
    expect(absent).toEqual({ refused: { current: undefined } });
    expect(await read({ pk, sk: 'NONE' })).toBeUndefined();
  });

  it('refuses an update with nothing to write', () => {
    expect(() =>
      kit.update
        .update()
        .patch({ other: 1 } as Record<string, unknown>, ['name'])
        .build(),
    ).toThrow(/nothing to write/);
  });
});

describe('walkCountedList', () => {
  /** A list of `n` records under a counter that sorts after them, as every counted list keeps it. */
  async function countedList(n: number, hidden = 0) {
    const pk = partition();
    const records = Array.from({ length: n + hidden }, (_, i) => ({
      pk,
      sk: `REC#${String(i).padStart(3, '0')}`,
      n: i,
      hidden: i < hidden,
    }));
    await kit.batch.writeMany([...records, { pk, sk: 'REC$COUNT', entity: 'Counter', count: n }]);
    const list = {
      query: {
        TableName: kit.client.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: 'entity = :counter OR #hidden = :no',
        ExpressionAttributeNames: { '#hidden': 'hidden' },
        ExpressionAttributeValues: { ':pk': pk, ':from': 'REC#', ':to': 'REC$COUNT', ':counter': 'Counter', ':no': false },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      isCounter: (item: Record<string, unknown>) => item.entity === 'Counter',
      totalOf: ([item]: Record<string, unknown>[]) => (item?.count as number | undefined) ?? 0,
      readCounters: async () => kit.walk.counted(await read({ pk, sk: 'REC$COUNT' })),
      cursorInRange: (after: Record<string, unknown>) => after.pk === pk && String(after.sk).startsWith('REC#'),
      keyOf: (item: Record<string, unknown>) => ({ pk, sk: item.sk as string }),
    };
    return { pk, list };
  }
  const numbers = (page: { items: Record<string, unknown>[] }) => page.items.map((item) => item.n);

  it('pages by offset, newest first, with the total from the counter', async () => {
    const { list } = await countedList(7, 3);
    const first = await kit.walk.walkCountedList(list, { limit: 3, offset: 0, after: undefined });
    expect(numbers(first)).toEqual([9, 8, 7]);
    expect(first).toMatchObject({ total: 7, hasMore: true, returned: 3 });
    const last = await kit.walk.walkCountedList(list, { limit: 3, offset: 6, after: undefined });
    expect(numbers(last)).toEqual([3]);
    expect(last.hasMore).toBe(false);
    const past = await kit.walk.walkCountedList(list, { limit: 3, offset: 50, after: undefined });
    expect(past).toMatchObject({ items: [], total: 7, hasMore: false, lastKey: undefined });
  });

  it('continues from a cursor, reading the counter beside the page', async () => {
    const { list, pk } = await countedList(7, 3);
    const first = await kit.walk.walkCountedList(list, { limit: 4, offset: 0, after: undefined });
    const second = await kit.walk.walkCountedList(list, { limit: 4, offset: 0, after: first.lastKey });
    expect(numbers(second)).toEqual([5, 4, 3]);
    expect(second).toMatchObject({ total: 7, hasMore: false });
    await expect(kit.walk.walkCountedList(list, { limit: 4, offset: 0, after: { pk, sk: 'OTHER#1' } })).rejects.toThrow(/outside/);
  });

  it('answers an empty list without a counter', async () => {
    const pk = partition();
    const { list } = await countedList(0);
    const empty = await kit.walk.walkCountedList(
      { ...list, query: { ...list.query, ExpressionAttributeValues: { ...list.query.ExpressionAttributeValues, ':pk': pk } } },
      { limit: 5, offset: 0, after: undefined },
    );
    expect(empty).toMatchObject({ items: [], total: 0, hasMore: false });
  });

  it('sums a sharded count (several counter items lead the range) in the same round trips as one counter', async () => {
    const pk = partition();
    const records = Array.from({ length: 9 }, (_, i) => ({ pk, sk: `REC#${String(i).padStart(3, '0')}`, n: i }));
    // Three of four possible shards were ever made; together they count the nine records.
    const shards = [2, 3, 4].map((count, shard) => ({ pk, sk: `REC$COUNT#${shard}`, entity: 'Counter', count }));
    await kit.batch.writeMany([...records, ...shards]);
    const queries: string[] = [];
    const list = {
      query: {
        TableName: kit.client.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': 'REC#', ':to': 'REC$COUNT#~' },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      counterItems: 4,
      isCounter: (item: Record<string, unknown>) => item.entity === 'Counter',
      totalOf: (counters: Record<string, unknown>[]) => counters.reduce((sum, item) => sum + (item.count as number), 0),
      readCounters: async () => {
        queries.push('counters');
        const { Items = [] } = await kit.client.dynamo.send(
          new kit.lib.QueryCommand({
            TableName: kit.client.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :shards)',
            ExpressionAttributeValues: { ':pk': pk, ':shards': 'REC$COUNT#' },
            ConsistentRead: true,
          }),
        );
        return Items;
      },
      cursorInRange: (after: Record<string, unknown>) => after.pk === pk && String(after.sk).startsWith('REC#'),
      keyOf: (item: Record<string, unknown>) => ({ pk, sk: item.sk as string }),
    };
    const sent = vi.spyOn(kit.client.dynamo, 'send');
    const first = await kit.walk.walkCountedList(list, { limit: 4, offset: 0, after: undefined });
    expect(numbers(first)).toEqual([8, 7, 6, 5]);
    expect(first).toMatchObject({ total: 9, hasMore: true });
    // The three shards and the page came in one Query.
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockClear();
    const second = await kit.walk.walkCountedList(list, { limit: 4, offset: 0, after: first.lastKey });
    expect(numbers(second)).toEqual([4, 3, 2, 1]);
    expect(second).toMatchObject({ total: 9, hasMore: true });
    // From a cursor: the page's Query and the shards' read, side by side.
    expect(sent).toHaveBeenCalledTimes(2);
    expect(queries).toEqual(['counters']);
    sent.mockRestore();
    const past = await kit.walk.walkCountedList(list, { limit: 4, offset: 9, after: undefined });
    expect(past).toMatchObject({ items: [], total: 9, hasMore: false });
  });
});
