/**
 * A full sync of 10,000 ideas (`limit=100`), walked by offset and by cursor against the sandbox,
 * side by side: items DynamoDB read (the Queries' ScannedCount), the read capacity it reports, and
 * the time. Offset pages re-read every idea before them (about n²/2·limit items in all); a cursor
 * page reads only itself.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../lib/admin/developer-keys.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import { ideaCounterEntity } from '../lib/ideas/entities.ts';
import { dynamo, tableName } from '../lib/platform/data/client.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { seededIdeaItem } from './harness.ts';

/** What the counter reads of a command's output (Query, GetItem). */
interface QueryOutput {
  ScannedCount?: number;
  Item?: unknown;
  ConsumedCapacity?: { CapacityUnits?: number };
}

interface Reads {
  items: number;
  capacity: number;
}

/** Adds up what every Query of the handlers' shared client read while `reads` is set. */
let reads: Reads | undefined;
dynamo.middlewareStack.add(
  ((next: (args: { input: Record<string, unknown> }) => Promise<{ output: QueryOutput }>) =>
    async (args: { input: Record<string, unknown> }) => {
      if (reads) args.input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (reads) {
        reads.items += result.output.ScannedCount ?? (result.output.Item ? 1 : 0);
        reads.capacity += result.output.ConsumedCapacity?.CapacityUnits ?? 0;
      }
      return result;
    }) as never,
  { step: 'initialize', name: 'benchReadCounter' },
);

/** Writes `count` ideas and their counter straight into the table (25 per BatchWrite, 8 at a time). */
async function seedIdeas(slug: string, count: number): Promise<void> {
  const base = Date.now() - count;
  const items = Array.from({ length: count }, (_, i) =>
    seededIdeaItem(slug, base + i, {
      title: `Idea ${i}`,
      description: 'A typical idea of a few sentences, so that the item size is realistic for a full sync walk.',
      status: 'new',
      module: 'billing',
    }),
  );
  items.push({ ...ideaCounterEntity.keys.counter(slug), entity: ideaCounterEntity.name, ideaCount: count } as never);
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let batch = batches.pop(); batch; batch = batches.pop()) {
      let unprocessed: unknown = { [tableName]: batch.map((Item) => ({ PutRequest: { Item } })) };
      while (unprocessed && Object.keys(unprocessed).length > 0) {
        const result = await dynamo.send(new BatchWriteCommand({ RequestItems: unprocessed as never }));
        unprocessed = result.UnprocessedItems;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function walk(sandbox: Sandbox, context: { host: string; key: string }, by: 'offset' | 'cursor') {
  const headers = { 'X-Service-Workspace-Host': context.host, Authorization: `Bearer ${context.key}` };
  reads = { items: 0, capacity: 0 };
  const started = performance.now();
  let pages = 0;
  let seen = 0;
  let next = '';
  for (;;) {
    const res = await fetch(`${sandbox.apiUrl}/ideas?limit=100${next}`, { headers });
    const body = (await res.json()) as { data: unknown[]; pagination: { offset: number; hasMore: boolean; nextCursor: string | null } };
    if (res.status !== 200) throw new Error(`GET /ideas: ${res.status} ${JSON.stringify(body)}`);
    pages++;
    seen += body.data.length;
    if (!body.pagination.hasMore) break;
    next = by === 'offset' ? `&offset=${body.pagination.offset + 100}` : `&cursor=${encodeURIComponent(body.pagination.nextCursor!)}`;
  }
  const result = { by, pages, seen, ms: performance.now() - started, ...reads };
  reads = undefined;
  return result;
}

export async function benchFullSync(sandbox: Sandbox, count: number): Promise<void> {
  const slug = `bench-sync-${process.pid}`;
  const ws = await createWorkspace(sandbox.store, slug);
  const key = await createDeveloperKey(sandbox.store, {
    workspace: slug,
    permissions: [...PERMISSIONS],
    rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE,
  });
  await seedIdeas(slug, count);
  const context = { host: ws.host, key: key.key };
  console.log(`\n## Full sync: ${count} ideas, limit=100, by offset and by cursor\n`);
  console.log('| walk | pages | ideas returned | items read (ScannedCount) | read capacity (RCU) | time (s) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const by of ['offset', 'cursor'] as const) {
    const r = await walk(sandbox, context, by);
    console.log(`| ${r.by} | ${r.pages} | ${r.seen} | ${r.items} | ${r.capacity.toFixed(1)} | ${(r.ms / 1000).toFixed(1)} |`);
  }
}
