/**
 * The search function's index cache (lib/knowledge-bank/search/index-cache.ts) in this process,
 * against the sandbox's real S3 (fauxqs) and DynamoDB: it is bounded by the indexes' estimated heap,
 * dropping the least recently used, and it never vacuums on the request path (the builder's merge
 * does, and the cache loads the merged base).
 *
 * The articles are made through the API, in the sandbox's table; their indexes are built by this test's
 * own builder calls, in a table and a bucket of this file's own that no stream feeds. In the shared ones,
 * the sandbox's stream-driven builder indexes the same workspaces at its own pace: this file's builder
 * call raced it (a full build where a delta was expected, when the sandbox's first manifest was not yet
 * written and the cache had built the index from the table meanwhile), and the cache could size an index
 * before one of its deltas landed and load it after.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type * as BuilderModule from '../../lib/knowledge-bank/search/builder.ts';
import type * as CacheModule from '../../lib/knowledge-bank/search/index-cache.ts';
import type * as FootprintModule from '../../lib/knowledge-bank/search/index-footprint.ts';
import { searchIndex } from '../../lib/knowledge-bank/search/search-index.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { ensureBucket } from '../../local/buckets.ts';
import { ensureTable } from '../../local/table.ts';
import { sandbox, useSandboxEnvironment } from '../support/fixtures.ts';
import { createArticle, createCategory, type KbWorkspace, kbWorkspace, publish } from '../support/knowledge-bank.ts';

/** This file's own table and bucket: its builder and caches read and write only these. */
const OWN = { TABLE_NAME: 'kb-search-cache-test', KB_SEARCH_BUCKET: 'kb-search-cache-test' };
const ENVIRONMENT = { AWS_ENDPOINT_URL_S3: sandbox.sqsEndpoint, ...OWN };
const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: sandbox.dynamodbEndpoint,
    region: REGION,
    credentials: CREDENTIALS,
  }),
);

/**
 * A fresh copy of the cache module (a new, empty cache) with this budget, as a new Lambda instance
 * would start, and the footprint module it counts with (a module copy keeps its own counts).
 */
async function freshCache(budgetBytes: number): Promise<typeof CacheModule & Pick<typeof FootprintModule, 'footprintOf'>> {
  useSandboxEnvironment({ ...ENVIRONMENT, KB_SEARCH_CACHE_BYTES: String(budgetBytes) });
  vi.resetModules();
  const cache = await import('../../lib/knowledge-bank/search/index-cache.ts');
  const { footprintOf } = await import('../../lib/knowledge-bank/search/index-footprint.ts');
  return { ...cache, footprintOf };
}

/** Every item of the workspace's partition (its articles, their live content, …), from the sandbox's table into this file's own. */
async function copyWorkspace(slug: string): Promise<void> {
  let page: QueryCommandOutput | undefined;
  do {
    page = await documents.send(
      new QueryCommand({
        TableName: sandbox.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(slug) },
        ConsistentRead: true,
        ExclusiveStartKey: page?.LastEvaluatedKey,
      }),
    );
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += 25) {
      const { UnprocessedItems } = await documents.send(
        new BatchWriteCommand({ RequestItems: { [OWN.TABLE_NAME]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
      expect(UnprocessedItems?.[OWN.TABLE_NAME] ?? []).toEqual([]);
    }
  } while (page.LastEvaluatedKey);
}

/** A workspace with `count` published bilingual articles, copied into this file's table and indexed there. */
async function publishedWorkspace(prefix: string, count: number): Promise<{ ws: KbWorkspace; ids: string[] }> {
  const ws = await kbWorkspace(prefix);
  const categoryId = (await createCategory(ws.writer, { nameEn: 'Help' })).id;
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: `${prefix} article ${n} about invoices`,
      titleAr: `مقالة ${n} عن الفواتير`,
      blocks: [
        {
          type: 'paragraph',
          text: { en: [{ text: `Paying invoice number ${n} by card or transfer.` }], ar: [{ text: `دفع الفاتورة رقم ${n}` }] },
        },
      ],
    });
    await publish(ws.writer, article.id);
    ids.push(article.id);
  }
  await copyWorkspace(ws.slug);
  expect(await builder.rebuildSearchIndex(ws.slug)).toMatchObject({ kind: 'rebuilt', articles: count });
  return { ws, ids };
}

let small: Array<{ ws: KbWorkspace; ids: string[] }>;
let twenty: { ws: KbWorkspace; ids: string[] };
let builder: typeof BuilderModule;

beforeAll(async () => {
  const admin = new DynamoDBClient({ endpoint: sandbox.dynamodbEndpoint, region: REGION, credentials: CREDENTIALS });
  await ensureTable(admin, OWN.TABLE_NAME);
  admin.destroy();
  await ensureBucket(sandbox.sqsEndpoint, REGION, OWN.KB_SEARCH_BUCKET);
  useSandboxEnvironment(ENVIRONMENT);
  vi.resetModules();
  builder = await import('../../lib/knowledge-bank/search/builder.ts');
  small = [];
  for (const prefix of ['cache-a', 'cache-b', 'cache-c']) small.push(await publishedWorkspace(prefix, 4));
  twenty = await publishedWorkspace('cache-dirt', 20);
}, 300_000);

describe('the index cache', () => {
  it('keeps indexes until their estimated heap passes the budget, then drops the least recently used', async () => {
    const [a, b, c] = small.map(({ ws }) => ws.slug) as [string, string, string];
    const sizing = await freshCache(1e9);
    for (const slug of [a, b, c]) await sizing.searchIndexOf(slug);
    const bytes = Object.fromEntries(sizing.cachedIndexes().map(({ workspace, bytes }) => [workspace, bytes]));
    expect(Object.keys(bytes)).toEqual([a, b, c]);

    // Room for two of them, not three.
    const budget = bytes[b]! + bytes[c]! + Math.floor(bytes[a]! / 2);
    const cache = await freshCache(budget);
    await cache.searchIndexOf(a);
    await cache.searchIndexOf(b);
    expect(cache.cachedIndexes().map(({ workspace }) => workspace)).toEqual([a, b]);
    await cache.searchIndexOf(c);
    expect(cache.cachedIndexes().map(({ workspace }) => workspace)).toEqual([b, c]);
    // Least recently used, not first loaded: b was used again, so c goes when a comes back.
    await cache.searchIndexOf(b);
    await cache.searchIndexOf(a);
    expect(cache.cachedIndexes().map(({ workspace }) => workspace)).toEqual([b, a]);
    expect(cache.cachedIndexes().reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThanOrEqual(budget);
  });

  it('never vacuums on the request path: past 10 % of documents replaced the builder has merged, and a search loads that base undecoded', async () => {
    const { ws, ids } = twenty;
    const cache = await freshCache(1e9);
    const held = await cache.searchIndexOf(ws.slug);
    expect(searchIndex(held, { q: 'invoices', limit: 50 }).total).toBe(20);

    // Ten of the twenty republished in one batch: 20 of 40 documents replaced.
    const update = await builder.updateSearchIndex(ws.slug, new Set(ids.slice(0, 10)));
    expect(update.kind).toBe('delta');
    expect(
      update.kind === 'delta' ? update.merged : undefined,
      'the builder merges (and vacuums) as soon as a delta replaces 10 % of the documents',
    ).toBeDefined();

    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the cache's revalidation interval
    const next = await cache.searchIndexOf(ws.slug);
    expect(next.dirtCount).toBe(0);
    // Loaded lazily: no term decoded until a query reaches it (a vacuum would have decoded them all).
    expect(cache.footprintOf(next).undecodedTerms).toBe(next.termCount);
    const [loaded] = cache.cachedIndexes();
    expect(searchIndex(next, { q: 'invoices', limit: 50 }).total).toBe(20);
    expect(cache.footprintOf(next).undecodedTerms).toBeGreaterThan(0.8 * next.termCount);
    // What the query decoded counts in the cache's estimate.
    await cache.searchIndexOf(ws.slug);
    expect(cache.cachedIndexes()[0]!.bytes).toBeGreaterThan(loaded!.bytes);
  });
});
