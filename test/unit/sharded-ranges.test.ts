/**
 * One list kept in several key ranges (lib/platform/data/sharded-ranges.ts), against a real DynamoDB
 * Local: every page of the merge equals the same page of the whole list sorted, by offset, from a
 * position, with a filter; a page unfiltered takes at most two parallel rounds; the walk of everything
 * is in order; a record met in two ranges is kept once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTableForUnitTests } from '../support/dynamodb-local.ts';

vi.setConfig({ testTimeout: 120_000 });

let local: { stop(): Promise<void> };
let kit: {
  ranges: typeof import('../../lib/platform/data/sharded-ranges.ts');
  batch: typeof import('../../lib/platform/data/batch.ts');
  client: typeof import('../../lib/platform/data/client.ts');
};

const RANGES = 8;
const PK = `WS#sharded-${Date.now()}`;
/** 200 ids in 8 ranges by a fixed spread (uneven on purpose), every third one `odd`. */
const items = Array.from({ length: 200 }, (_, i) => {
  const id = `id-${String(i).padStart(4, '0')}`;
  const range = (i * 7 + (i % 5)) % RANGES;
  return { pk: PK, sk: `R#${range}#${id}`, id, kind: i % 3 === 0 ? 'odd' : 'even' };
});

beforeAll(async () => {
  local = await startTableForUnitTests();
  kit = {
    ranges: await import('../../lib/platform/data/sharded-ranges.ts'),
    batch: await import('../../lib/platform/data/batch.ts'),
    client: await import('../../lib/platform/data/client.ts'),
  };
  await kit.batch.writeMany(items);
}, 120_000);

afterAll(async () => {
  await local?.stop();
});

function list(options: { descending: boolean; kind?: string; after?: string }) {
  const ranges = Array.from({ length: RANGES }, (_, range) => ({
    TableName: kit.client.tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ...(options.kind ? { FilterExpression: 'kind = :kind' } : {}),
    ExpressionAttributeValues: {
      ':pk': PK,
      ':from': options.after && !options.descending ? `R#${range}#${options.after}` : `R#${range}#`,
      ':to': options.after && options.descending ? `R#${range}#${options.after}` : `R#${range}#~`,
      ...(options.kind ? { ':kind': options.kind } : {}),
    },
    ScanIndexForward: !options.descending,
    ConsistentRead: true,
  }));
  return { ranges, orderOf: (item: Record<string, unknown>) => String(item.sk).split('#')[2] as string, ...options };
}

function expected(options: { descending: boolean; kind?: string; after?: string }): string[] {
  const ids = items
    .filter((item) => !options.kind || item.kind === options.kind)
    .map((item) => item.id)
    .filter((id) => !options.after || (options.descending ? id < options.after : id > options.after))
    .sort();
  return options.descending ? ids.reverse() : ids;
}

describe('readMerged', () => {
  it('reads exactly the first items of the merged list, in at most two rounds without a filter', async () => {
    for (const descending of [true, false]) {
      for (const wanted of [1, 3, 11, 26, 51, 101, 250]) {
        for (const firstLimit of [1, 2, Math.ceil((1.5 * wanted) / RANGES) + 2]) {
          const page = await kit.ranges.readMerged(list({ descending }), wanted, firstLimit);
          expect(page.items.map((item) => item.id)).toEqual(expected({ descending }).slice(0, wanted));
          expect(page.rounds).toBeLessThanOrEqual(2);
        }
      }
    }
  });

  it('starts after a position (a cursor) and keeps reading a filtered list until the page is proven', async () => {
    for (const after of ['id-0050', 'id-0137', 'id-0199']) {
      for (const kind of [undefined, 'odd']) {
        const options = { descending: true, after, ...(kind ? { kind } : {}) };
        const page = await kit.ranges.readMerged(list(options), 26, 2);
        expect(page.items.map((item) => item.id)).toEqual(expected(options).slice(0, 26));
      }
    }
  });

  it('asks only the ranges that can still hold part of the page in its second round', async () => {
    const sent: number[] = [];
    const counting = kit.client.dynamo.middlewareStack.add(
      (next) => async (args) => {
        sent.push(Date.now());
        return next(args);
      },
      { step: 'initialize', name: 'countShardedQueries' },
    );
    try {
      // One item of each range first: only the ranges whose newest item is among the first five newest
      // heads can hold more of the page, so the second round asks those four, not all eight.
      const page = await kit.ranges.readMerged(list({ descending: true }), 5, 1);
      expect(page.items.map((item) => item.id)).toEqual(expected({ descending: true }).slice(0, 5));
      expect(page.rounds).toBe(2);
      expect(sent.length).toBe(RANGES + 4);
    } finally {
      kit.client.dynamo.middlewareStack.remove('countShardedQueries');
      void counting;
    }
  });
});

describe('readAll', () => {
  it('walks every item of every range in order, a few per range at a time', async () => {
    const walked: string[] = [];
    for await (const item of kit.ranges.readAll(list({ descending: false }), 4)) walked.push(item.id as string);
    expect(walked).toEqual(expected({ descending: false }));
  });
});
