/**
 * Webhooks that never lose an event (issue 40), in the shared sandbox: a disabled webhook holds what
 * it misses (its waiting retries too), the workspace's other webhooks hear of it, a recovery sends
 * what it held once each, in event order, and a second one sends nothing new; one recovery at a time;
 * a rate per webhook held across the delivery queue's consumers; a test event. The failure window and
 * a recovery killed half-way (the whole sandbox, SIGKILL, then started again on its DATA_DIR) run in a
 * sandbox of their own (webhook-nothing-lost.test.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { adminStore, clientFor, expectErrorEnvelope, newWorkspace } from '../support/fixtures.ts';
import { putIdea } from '../support/idea-items.ts';
import { ALL_EVENTS, eventsFor, usePipelineWorkspace } from '../support/webhook-pipeline.ts';
import { eventually, type ReceivedRequest, verifySignature } from '../support/webhook-receiver.ts';

// Each test waits for the pipeline several times over (notices, holds, a recovery's steps): a minute or two on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const pipeline = usePipelineWorkspace('webhook-recovery');

const accepted = (target: { requests: ReceivedRequest[] }, ideaIds: string[]) =>
  target.requests.filter((r) => ideaIds.includes(r.json?.data?.ideaId));

/** A recovery read until it is finished. */
async function finished(webhookId: string, recoveryId: string): Promise<any> {
  const { body } = await eventually(
    () => pipeline.api.get(`/webhooks/${webhookId}/recoveries/${recoveryId}`),
    (res) => res.body?.recovery?.status === 'done' || res.body?.recovery?.status === 'stopped',
    60_000,
  );
  return body.recovery;
}

/** The held deliveries of a webhook, once there are `count` of them. */
function held(webhookId: string, count: number): Promise<any[]> {
  return eventually(
    async () => (await pipeline.api.get(`/webhooks/${webhookId}/deliveries?status=held&limit=100`)).body.deliveries as any[],
    (deliveries) => deliveries.length >= count,
    20_000,
  );
}

describe('a disabled webhook holds what it misses', () => {
  it('holds its events, tells the other webhooks, and a recovery sends each once, in event order', async () => {
    const target = await pipeline.receiver();
    const watcher = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const other = await pipeline.enabledWebhook(watcher, ['webhook.disabled', 'webhook.enabled']);

    const disabled = await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    expect(disabled.body.webhook).toMatchObject({ enabled: false, disabledReason: { code: 'manual', lastErrors: [] } });
    const since = disabled.body.webhook.disabledReason.since;
    const [notice] = await watcher.waitForRequests(1, { filter: (r) => r.json?.type === 'webhook.disabled' });
    verifySignature(other.secret, notice!);
    expect(notice!.json.data).toEqual({
      webhookId: hook.id,
      workspace: pipeline.ws.slug,
      name: 'Pipeline test',
      reason: { code: 'manual', since, lastErrors: [] },
      heldDeliveries: 0,
    });
    // The webhook itself is never told about itself.
    expect(target.requests.filter((r) => r.json?.type === 'webhook.disabled')).toHaveLength(0);

    const ideas: string[] = [];
    for (let i = 0; i < 5; i++) ideas.push(await putIdea(pipeline.ws.slug));
    const heldOnes = await held(hook.id, 5);
    expect(heldOnes.map((d) => d.outcome)).toEqual(['held', 'held', 'held', 'held', 'held']);
    expect(heldOnes[0]).toMatchObject({ eventType: 'idea.submitted', attempt: 0, recoveryId: null, nextAttemptAt: null });
    expect(accepted(target, ideas)).toHaveLength(0);

    const enabled = (await pipeline.api.post(`/webhooks/${hook.id}/enable`)).body.webhook;
    expect(enabled.disabledReason).toBeNull();
    // The notice of this enable (the first one, before the webhook was disabled, was told too): its time is the enable's.
    const [enabledNotice] = await watcher.waitForRequests(1, {
      filter: (r) => r.json?.type === 'webhook.enabled' && r.json.timestamp === enabled.updatedAt,
    });
    expect(enabledNotice!.json.data).toEqual({ webhookId: hook.id, workspace: pipeline.ws.slug, name: 'Pipeline test', heldDeliveries: 5 });

    const started = await pipeline.api.post(`/webhooks/${hook.id}/recover`, { body: { since } });
    expect(started.status, started.text).toBe(202);
    const { recovery } = started.body;
    expect(recovery).toMatchObject({ webhookId: hook.id, status: 'queued', queued: 0, delivered: 0, failed: 0, since });
    expect(started.headers.get('location')).toBe(`/api/v1/webhooks/${hook.id}/recoveries/${recovery.id}`);
    expect(await finished(hook.id, recovery.id)).toMatchObject({ status: 'done', queued: 5, delivered: 5, failed: 0, stoppedReason: null });

    const sent = accepted(target, ideas);
    expect(sent.map((r) => r.json.data.ideaId).sort()).toEqual([...ideas].sort());
    const ids = sent.map((r) => r.headers['webhook-id'] as string);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(5);
    for (const request of sent) verifySignature(hook.secret, request);
    const deliveries = await pipeline.deliveries(hook.id);
    expect(deliveries.filter((d) => d.recoveryId === recovery.id).map((d) => d.outcome)).toEqual(Array(5).fill('delivered'));

    // The same window again: nothing held, failed or cancelled is left, so nothing is sent.
    const again = await pipeline.api.post(`/webhooks/${hook.id}/recover`, { body: { since } });
    expect(again.status, again.text).toBe(202);
    expect(await finished(hook.id, again.body.recovery.id)).toMatchObject({ status: 'done', queued: 0, delivered: 0, failed: 0 });
    expect(accepted(target, ideas)).toHaveLength(5);
  });

  it('holds the deliveries waiting for a retry when it is disabled, and a recovery sends them', async () => {
    let healthy = false;
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' || healthy ? { status: 204 } : { status: 503, headers: { 'Retry-After': '3600' } },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'retrying',
    );
    const disabled = await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    // Held as soon as disable answers: 3 calls of authentication, the webhook and its waiting retries read together, one transaction.
    expect([Number(disabled.headers.get('x-sandbox-dynamodb-calls')), Number(disabled.headers.get('x-sandbox-dynamodb-depth'))]).toEqual([
      6, 3,
    ]);
    const [delivery] = await pipeline.deliveries(hook.id);
    expect(delivery).toMatchObject({ outcome: 'held', attempt: 1, nextAttemptAt: null });
    expect(delivery.error).toMatch(/disabled/);

    healthy = true;
    await pipeline.api.post(`/webhooks/${hook.id}/enable`);
    const started = await pipeline.api.post(`/webhooks/${hook.id}/recover`, {
      body: { since: new Date(Date.now() - 3600_000).toISOString() },
    });
    expect(await finished(hook.id, started.body.recovery.id)).toMatchObject({ status: 'done', queued: 1, delivered: 1 });
    const [after] = await pipeline.deliveries(hook.id);
    expect(after).toMatchObject({ outcome: 'delivered', attempt: 2, recoveryId: started.body.recovery.id });
    expect(target.requests.filter(eventsFor(ideaId))).toHaveLength(2);
  });

  it('runs one recovery at a time, only for an enabled webhook, over a window inside the retention', async () => {
    // A slow receiver keeps the first recovery running while the second is asked for.
    const target = await pipeline.receiver(() => ({ status: 204, delayMs: 400 }));
    const hook = await pipeline.enabledWebhook(target);
    await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    for (let i = 0; i < 4; i++) await putIdea(pipeline.ws.slug);
    await held(hook.id, 4);
    const since = new Date(Date.now() - 60_000).toISOString();

    expectErrorEnvelope(await pipeline.api.post(`/webhooks/${hook.id}/recover`, { body: { since } }), 400, 'webhook_disabled');
    await pipeline.api.post(`/webhooks/${hook.id}/enable`);
    const tooOld = await pipeline.api.post(`/webhooks/${hook.id}/recover`, { body: { since: '2020-01-01T00:00:00Z' } });
    expectErrorEnvelope(tooOld, 400, 'invalid_body');
    expect(tooOld.body.issues[0].path).toBe('body.since');

    const first = await pipeline.api.post(`/webhooks/${hook.id}/recover`, {
      body: { since },
      headers: { 'Idempotency-Key': 'recover-once' },
    });
    expect(first.status).toBe(202);
    const second = await pipeline.api.post(`/webhooks/${hook.id}/recover`, { body: { since } });
    expectErrorEnvelope(second, 409, 'recovery_in_progress');
    // A retry under the same key is the first answer, not a 409.
    const retried = await pipeline.api.post(`/webhooks/${hook.id}/recover`, {
      body: { since },
      headers: { 'Idempotency-Key': 'recover-once' },
    });
    expect([retried.status, retried.headers.get('idempotent-replayed'), retried.body.recovery.id]).toEqual([
      202,
      'true',
      first.body.recovery.id,
    ]);

    expect(await finished(hook.id, first.body.recovery.id)).toMatchObject({ status: 'done', queued: 4, delivered: 4 });
    // Another workspace's webhook and recovery are 404, as if they did not exist.
    const stranger = clientFor(await newWorkspace('webhook-recovery-other'));
    expectErrorEnvelope(await stranger.get(`/webhooks/${hook.id}/recoveries/${first.body.recovery.id}`), 404, 'not_found');
    expectErrorEnvelope(await stranger.post(`/webhooks/${hook.id}/recover`, { body: { since } }), 404, 'not_found');
  });
});

describe('a rate per webhook', () => {
  it('starts at most maxDeliveriesPerSecond a second across the consumers; the others wait, throttled, never failed', async () => {
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const patched = await pipeline.api.patch(`/webhooks/${hook.id}`, { body: { maxDeliveriesPerSecond: 1 } });
    expect(patched.body.webhook.maxDeliveriesPerSecond).toBe(1);
    const startedAt = Date.now();
    // Six changes at once: one stream batch, one batch of messages, delivered concurrently, one a second.
    const ideas = await Promise.all(Array.from({ length: 6 }, () => putIdea(pipeline.ws.slug)));
    // Those over the budget wait, and the delivery log says so while they do (the last waits about five seconds).
    await eventually(
      () => pipeline.deliveries(hook.id),
      (deliveries) => deliveries.some((d) => d.outcome === 'throttled'),
      30_000,
    );
    const arrived = await target.waitForRequests(6, { filter: (r) => ideas.includes(r.json?.data?.ideaId), timeoutMs: 40_000 });
    // Six starts in six different clock seconds, none before the ideas were written: the last came more
    // than four seconds after (the first second began at most one second before the first start).
    expect(Math.max(...arrived.map((r) => r.at)) - startedAt).toBeGreaterThan(4000);
    // The budget's slot items: six seconds granted one each, and tries sent back counted in them.
    const slots = (
      await adminStore().db.send(
        new QueryCommand({
          TableName: adminStore().table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `WS#${pipeline.ws.slug}`, ':prefix': `WHRATE#${hook.id}#` },
          ConsistentRead: true,
        }),
      )
    ).Items!;
    expect(slots.filter((slot) => slot.taken >= 1)).toHaveLength(6);
    expect(slots.reduce((sum, slot) => sum + slot.taken, 0)).toBeGreaterThan(6);
    const deliveries = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l.filter((d) => d.outcome === 'delivered').length === 6,
    );
    // Waiting is never an attempt: each was made once.
    expect(deliveries.map((d) => d.attempt)).toEqual(Array(6).fill(1));
    expect(target.requests.filter((r) => ideas.includes(r.json?.data?.ideaId))).toHaveLength(6);

    expectErrorEnvelope(await pipeline.api.patch(`/webhooks/${hook.id}`, { body: { maxDeliveriesPerSecond: 1001 } }), 400, 'invalid_body');
    expect(
      (await pipeline.api.patch(`/webhooks/${hook.id}`, { body: { maxDeliveriesPerSecond: null } })).body.webhook.maxDeliveriesPerSecond,
    ).toBeNull();
  });
});

describe('a test event', () => {
  it('sends a signed webhook.test to an enabled webhook, shown in its delivery log', async () => {
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target, ALL_EVENTS);
    const res = await pipeline.api.post(`/webhooks/${hook.id}/test`);
    expect(res.status, res.text).toBe(202);
    expect(res.body.delivery).toMatchObject({ eventType: 'webhook.test', outcome: 'pending', attempt: 0 });
    const [request] = await target.waitForRequests(1, { filter: (r) => r.json?.type === 'webhook.test' });
    verifySignature(hook.secret, request!);
    expect(request!.headers['webhook-id']).toBe(res.body.delivery.id);
    expect(request!.json).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhookId: hook.id, workspace: pipeline.ws.slug },
    });
    await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l.some((d) => d.id === res.body.delivery.id && d.outcome === 'delivered'),
    );
    await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    expectErrorEnvelope(await pipeline.api.post(`/webhooks/${hook.id}/test`), 400, 'webhook_disabled');
  });
});
