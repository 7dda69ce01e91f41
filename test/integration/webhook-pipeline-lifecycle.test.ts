/**
 * The delivery pipeline in the sandbox, on real DynamoDB Local stream records (see
 * webhook-pipeline-events.test.ts), as the webhook changes: secret rotation, URL changes,
 * disabling, and redelivery.
 */
import { describe, expect, it } from 'vitest';
import { putIdea } from '../support/idea-items.ts';
import { eventsFor, usePipelineWorkspace } from '../support/webhook-pipeline.ts';
import { eventually, verifySignature } from '../support/webhook-receiver.ts';

const pipeline = usePipelineWorkspace('pipeline-lifecycle');

describe('secret rotation, URL changes and redelivery', () => {
  it('signs with the new secret after rotation; the old one is never used again', async () => {
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const rotated = await pipeline.api.post(`/webhooks/${hook.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook.enabled).toBe(false);
    const newSecret = rotated.body.webhook.secret;

    const whileDisabled = await putIdea(pipeline.ws.slug);
    // The pipeline processed that change while the webhook was disabled: it holds it.
    await eventually(
      async () => (await pipeline.api.get(`/webhooks/${hook.id}/deliveries?status=held`)).body.deliveries,
      (held) => held.length === 1,
    );
    expect((await pipeline.api.post(`/webhooks/${hook.id}/enable`)).status).toBe(200);
    const verification = target.requests.filter((r) => r.json?.type === 'webhook.verification').at(-1)!;
    expect(verification.headers.authorization).toBe(`Bearer ${newSecret}`);
    verifySignature(newSecret, verification);

    const ideaId = await putIdea(pipeline.ws.slug);
    const [request] = await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(request!.headers.authorization).toBe(`Bearer ${newSecret}`);
    verifySignature(newSecret, request!);
    expect(() => verifySignature(hook.secret, request!)).toThrow();
    expect(target.requests.filter(eventsFor(whileDisabled))).toHaveLength(0);
  });

  it('stops delivering to a webhook whose URL changed until it is enabled again', async () => {
    const oldTarget = await pipeline.receiver();
    const newTarget = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(oldTarget);
    const patched = await pipeline.api.patch(`/webhooks/${hook.id}`, { body: { url: newTarget.url } });
    expect(patched.body.webhook).toMatchObject({ url: newTarget.url, enabled: false, disabledReason: { code: 'url_changed' } });
    const ideaId = await putIdea(pipeline.ws.slug);
    // Processed while the webhook was disabled: held, sent to neither receiver.
    await eventually(
      async () => (await pipeline.api.get(`/webhooks/${hook.id}/deliveries?status=held`)).body.deliveries,
      (held) => held.length === 1,
    );
    expect(oldTarget.requests.filter(eventsFor(ideaId))).toHaveLength(0);
    expect(newTarget.requests).toHaveLength(0);
  });

  it('holds queued retries when the webhook is disabled', async () => {
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 500 },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'retrying',
    );
    await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'held',
      10_000,
    );
    expect(delivery).toMatchObject({
      attempt: 1,
      error: 'the webhook was disabled: a recovery sends it once it is enabled',
      nextAttemptAt: null,
    });
    expect(target.requests.filter(eventsFor(ideaId))).toHaveLength(1);
  });

  it('shows a retry waiting for its time as held as soon as disable answers (5 DynamoDB calls)', async () => {
    // Retry-After keeps the retry an hour away: without the disable request holding it, it would read `retrying` until then.
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 503, headers: { 'Retry-After': '3600' } },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [waiting] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'retrying',
    );
    expect(Date.parse(waiting!.nextAttemptAt!) - Date.now()).toBeGreaterThan(3000_000);
    const disabled = await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(Number(disabled.headers.get('x-sandbox-dynamodb-calls')), 'auth 3, the webhook and its waiting retries, one transaction').toBe(
      6,
    );
    const [delivery] = await pipeline.deliveries(hook.id);
    expect(delivery).toMatchObject({ outcome: 'held', attempt: 1, nextAttemptAt: null });
    // Enabling again does not send it by itself: a recovery (or a redelivery) is the way back.
    expect((await pipeline.api.post(`/webhooks/${hook.id}/enable`)).status).toBe(200);
    expect((await pipeline.deliveries(hook.id))[0]).toMatchObject({ outcome: 'held' });
  });

  it('redelivers a delivered event with the same webhook-id', async () => {
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    const [first] = await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'delivered',
    );

    const res = await pipeline.api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ ok: true });
    const again = await target.waitForRequests(2, { filter: eventsFor(ideaId) });
    expect(again[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again[1]!.body).toBe(first!.body);
    verifySignature(hook.secret, again[1]!);
    const [after] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.attempt === 2 && l[0]?.outcome === 'delivered',
    );
    expect(after.attempts.map((a: any) => a.attempt)).toEqual([2, 1]);
  });

  it('redelivers a failed delivery with a fresh round of attempts', async () => {
    let healthy = false;
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' || healthy ? { status: 200 } : { status: 500 },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(4, { filter: eventsFor(ideaId), timeoutMs: 25_000 });
    const [failed] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'failed',
    );
    healthy = true;
    expect((await pipeline.api.post(`/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`)).status).toBe(202);
    const [delivered] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'delivered',
    );
    expect(delivered.attempt).toBe(5);
  });

  it('refuses to redeliver to a disabled webhook, and answers 404 for an unknown delivery', async () => {
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'delivered',
    );
    const unknown = `evt_${'0'.repeat(39)}`;
    expect((await pipeline.api.post(`/webhooks/${hook.id}/deliveries/${unknown}/redeliver`)).status).toBe(404);
    expect((await pipeline.api.post(`/webhooks/${hook.id}/deliveries/not-an-id/redeliver`)).body.error).toBe('invalid_path');
    await pipeline.api.post(`/webhooks/${hook.id}/disable`);
    const res = await pipeline.api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('webhook_disabled');
  });
});
