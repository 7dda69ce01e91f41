/**
 * A webhook's deliveries spread over shard ranges (lib/webhooks/entities.ts: one range per webhook took
 * every delivery at its end, docs/costs.md): the list is the one order it always was, by offset and by
 * cursor, and a delivery is claimed, recorded and redelivered where its shard keeps it.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { workspacePk } from '../../lib/platform/data/keys.ts';
import { webhookDeliveryEntity } from '../../lib/webhooks/entities.ts';
import type { WebhookEvent } from '../../lib/webhooks/events.ts';
import { adminStore, clientFor, newWorkspace, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let webhookId: string;
let deliveries: typeof import('../../lib/webhooks/store/deliveries.ts');

const event = (id: string) => ({ id, type: 'idea.submitted', timestamp: new Date().toISOString(), data: {} }) as unknown as WebhookEvent;
/** Event ids as the pipeline makes them: `evt_`, then time-ordered base 36. */
const eventId = (n: number) => `evt_${String(n).padStart(7, '0')}${'0'.repeat(26)}abcdef`;

beforeAll(async () => {
  useSandboxEnvironment();
  deliveries = await import('../../lib/webhooks/store/deliveries.ts');
  ws = await newWorkspace('shards');
  api = clientFor(ws);
  const created = await api.post('/webhooks', { body: { name: 'shards', url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] } });
  expect(created.status, created.text).toBe(201);
  webhookId = created.body.webhook.id;
  for (let n = 1; n <= 14; n++) await deliveries.recordNewDelivery(ws.slug, webhookId, event(eventId(n)), '{}');
});

describe('deliveries over shard ranges', () => {
  it('spreads one webhook’s deliveries over several ranges', async () => {
    const { db, table } = adminStore();
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': workspacePk(ws.slug), ':prefix': webhookDeliveryEntity.keys.prefix(webhookId) },
      }),
    );
    const ranges = new Set(Items.map((item) => (item.sk as string).split('#')[2]));
    expect(Items).toHaveLength(14);
    expect(ranges.size).toBeGreaterThan(2);
  });

  it('lists them newest first by offset and by cursor, each once', async () => {
    const newestFirst = Array.from({ length: 14 }, (_, i) => eventId(14 - i));
    const byOffset: string[] = [];
    for (let offset = 0; offset < 14; offset += 5) {
      const res = await api.get(`/webhooks/${webhookId}/deliveries?limit=5&offset=${offset}`);
      expect(res.status, res.text).toBe(200);
      byOffset.push(...res.body.deliveries.map((d: { id: string }) => d.id));
      expect(res.body.pagination.hasMore).toBe(offset + 5 < 14);
    }
    expect(byOffset).toEqual(newestFirst);
    const byCursor: string[] = [];
    let res = await api.get(`/webhooks/${webhookId}/deliveries?limit=4`);
    for (;;) {
      expect(res.status, res.text).toBe(200);
      byCursor.push(...res.body.deliveries.map((d: { id: string }) => d.id));
      if (!res.body.pagination.hasMore) break;
      res = await api.get(`/webhooks/${webhookId}/deliveries?limit=4&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
    }
    expect(byCursor).toEqual(newestFirst);
  });

  it('claims, records and redelivers a delivery where its shard keeps it', async () => {
    const message = { workspace: ws.slug, webhookId, eventId: eventId(7), attempt: 1 };
    const claim = await deliveries.claimDeliveryAttempt(message, 60);
    expect('claimed' in claim).toBe(true);
    if (!('claimed' in claim)) return;
    expect(claim.claimed.key).toEqual(webhookDeliveryEntity.keys.delivery(ws.slug, webhookId, eventId(7)));
    const at = new Date().toISOString();
    const attempt = { attempt: 1, at, outcome: 'delivered' as const, responseStatus: 204, durationMs: 5, error: null };
    expect(await deliveries.recordAttemptResult(claim.claimed, { attempt, outcome: 'delivered' })).toBe(true);
    expect(await deliveries.requeueDelivery(ws.slug, webhookId, eventId(7))).toBe(2);
    await expect(deliveries.requeueDelivery(ws.slug, webhookId, eventId(99))).rejects.toMatchObject({ status: 404 });
    const listed = await api.get(`/webhooks/${webhookId}/deliveries?limit=14`);
    expect(listed.body.deliveries.find((d: { id: string }) => d.id === eventId(7))).toMatchObject({ outcome: 'pending', attempt: 1 });
  });
});
