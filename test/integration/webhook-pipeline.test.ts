/**
 * The delivery pipeline end to end in the sandbox, on real DynamoDB Local stream records:
 * idea item written → stream → fan-out (the stream handler, fed by the sandbox's event source
 * mapping) → SQS (fauxqs) → delivery handler → a real HTTP receiver on 127.0.0.1.
 * Idea items are written directly (test/support/idea-items.ts) as the ideas contract describes.
 */
import { ReceiveMessageCommand, DeleteMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lib/data/keys.ts';
import { adminStore, clientFor, sandbox, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { deleteIdea, PERSONAL_MARKERS, putIdea, updateIdea } from '../support/idea-items.ts';
import { eventually, startReceiver, verifySignature, type Receiver, type ReceivedRequest } from '../support/webhook-receiver.ts';

const ALL_EVENTS = ['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted'];

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  ws = await newWorkspace('pipeline');
  api = clientFor(ws);
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

/** A webhook on `target`, created and enabled through the API. */
async function enabledWebhook(target: Receiver, events = ALL_EVENTS): Promise<{ id: string; secret: string }> {
  const created = await api.post('/webhooks', { body: { name: 'Pipeline test', url: target.url, events } });
  expect(created.status, created.text).toBe(201);
  const enabled = await api.post(`/webhooks/${created.body.webhook.id}/enable`);
  expect(enabled.status, enabled.text).toBe(200);
  return { id: created.body.webhook.id, secret: created.body.webhook.secret };
}

const eventsFor = (ideaId: string) => (r: ReceivedRequest) => r.json?.data?.ideaId === ideaId;

async function deliveries(webhookId: string) {
  const res = await api.get(`/webhooks/${webhookId}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries as any[];
}

describe('idea changes become signed webhook deliveries', () => {
  it('delivers idea.submitted with a valid Bearer and a Standard Webhooks signature, identifiers only', async () => {
    const target = await receiver();
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);

    const [request] = await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBe(`Bearer ${hook.secret}`);
    expect(verifySignature(hook.secret, request!)).toEqual(request!.json);
    expect(request!.headers['webhook-id']).toMatch(/^evt_[0-9a-z]{39}$/);
    expect(request!.json).toEqual({ type: 'idea.submitted', timestamp: expect.any(String), data: { ideaId, workspace: ws.slug } });
    for (const marker of [...PERSONAL_MARKERS, 'confidential', 'Private description']) expect(request!.body).not.toContain(marker);

    const [delivery] = await eventually(() => deliveries(hook.id), (list) => list[0]?.outcome === 'delivered');
    expect(delivery).toMatchObject({
      id: request!.headers['webhook-id'],
      eventId: request!.headers['webhook-id'],
      eventType: 'idea.submitted',
      outcome: 'delivered',
      attempt: 1,
      responseStatus: 204,
      error: null,
      nextAttemptAt: null,
    });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
    expect(delivery.attempts).toEqual([
      { attempt: 1, at: expect.any(String), outcome: 'delivered', responseStatus: 204, durationMs: expect.any(Number), error: null },
    ]);
  });

  it('tells a status change from other edits, and reports deletes', async () => {
    const target = await receiver();
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug, { status: 'new' });
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await updateIdea(ws.slug, ideaId, { status: 'planned' });
    await target.waitForRequests(2, { filter: eventsFor(ideaId) });
    await updateIdea(ws.slug, ideaId, { title: 'A new confidential title' });
    await target.waitForRequests(3, { filter: eventsFor(ideaId) });
    await deleteIdea(ws.slug, ideaId);
    const received = await target.waitForRequests(4, { filter: eventsFor(ideaId) });

    expect(received.map((r) => r.json.type)).toEqual(['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted']);
    expect(received[1]!.json.data).toEqual({ ideaId, workspace: ws.slug, previousStatus: 'new', status: 'planned' });
    expect(received[2]!.json.data).toEqual({ ideaId, workspace: ws.slug });
    expect(received[3]!.json.data).toEqual({ ideaId, workspace: ws.slug });
    for (const r of received) {
      verifySignature(hook.secret, r);
      expect(r.body).not.toContain('confidential');
    }
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(4);

    const list = await eventually(() => deliveries(hook.id), (l) => l.filter((d) => d.outcome === 'delivered').length >= 4);
    // Newest first: the list order is the reverse of the order the events happened in.
    const ids = received.map((r) => r.headers['webhook-id']).reverse();
    expect(list.map((d) => d.eventId).filter((id) => ids.includes(id))).toEqual(ids);
  });

  it('sends each webhook only the kinds it subscribed to, and nothing to disabled webhooks', async () => {
    const statusOnly = await receiver();
    const disabled = await receiver();
    await enabledWebhook(statusOnly, ['idea.status_changed']);
    const off = await api.post('/webhooks', { body: { name: 'Never enabled', url: disabled.url, events: ALL_EVENTS } });
    expect(off.status).toBe(201);

    const ideaId = await putIdea(ws.slug, { status: 'new' });
    await updateIdea(ws.slug, ideaId, { title: 'edit' });
    await updateIdea(ws.slug, ideaId, { status: 'done' });
    const [only] = await statusOnly.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(only!.json.type).toBe('idea.status_changed');
    await new Promise((r) => setTimeout(r, 1500));
    expect(statusOnly.requests.filter(eventsFor(ideaId))).toHaveLength(1);
    expect(disabled.requests).toHaveLength(0);
  });

  it('gives every webhook the same event id for the same change', async () => {
    const first = await receiver();
    const second = await receiver();
    await enabledWebhook(first);
    await enabledWebhook(second);
    const ideaId = await putIdea(ws.slug);
    const [a] = await first.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [b] = await second.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(a!.headers['webhook-id']).toBe(b!.headers['webhook-id']);
  });

  it('ignores items that are not ideas, and writes that change no idea version', async () => {
    const target = await receiver();
    await enabledWebhook(target);
    await adminStore().db.send(
      new PutCommand({
        TableName: adminStore().table,
        Item: { pk: keys.workspacePk(ws.slug), sk: 'NOTANIDEA#1', entity: 'Comment', id: 'c1', workspace: ws.slug },
      }),
    );
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await new Promise((r) => setTimeout(r, 1000));
    expect(target.requests.filter((r) => r.json?.type !== 'webhook.verification').map((r) => r.json.data.ideaId)).toEqual([ideaId]);
  });

  it('sends nothing for a workspace whose webhooks module is off', async () => {
    const other = await newWorkspace('pipeline-off');
    const target = await receiver();
    const created = await clientFor(other).post('/webhooks', { body: { name: 'x', url: target.url, events: ALL_EVENTS } });
    expect((await clientFor(other).post(`/webhooks/${created.body.webhook.id}/enable`)).status).toBe(200);
    const { changeModules } = await import('../../lib/admin/workspaces.ts');
    await changeModules(adminStore(), other.slug, { disable: ['webhooks'] });
    await putIdea(other.slug);
    await new Promise((r) => setTimeout(r, 2000));
    expect(target.requests.filter((r) => r.json?.type !== 'webhook.verification')).toHaveLength(0);
  });
});

describe('retries', () => {
  it('delivers on the third attempt after two failures, with the same webhook-id each time', async () => {
    let failuresLeft = 2;
    const target = await receiver((request) =>
      request.json?.type === 'idea.submitted' && failuresLeft-- > 0 ? { status: 500 } : { status: 200 },
    );
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    const attempts = await target.waitForRequests(3, { filter: eventsFor(ideaId), timeoutMs: 25_000 });
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    for (const attempt of attempts) verifySignature(hook.secret, attempt);
    // Backoff: about a second apart with the test schedule (WEBHOOK_RETRY_DELAYS=1,1,1, ±20 % jitter).
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(700);

    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'delivered');
    expect(delivery).toMatchObject({ outcome: 'delivered', attempt: 3, responseStatus: 200, error: null, nextAttemptAt: null });
    expect(delivery.attempts.map((a: any) => [a.attempt, a.outcome, a.responseStatus])).toEqual([
      [3, 'delivered', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(delivery.attempts[1].error).toBe('the receiver answered 500');
    await new Promise((r) => setTimeout(r, 1500));
    expect(target.requests.filter(eventsFor(ideaId))).toHaveLength(3);
  });

  it('shows the next attempt time while retrying', async () => {
    const target = await receiver((request) => (request.json?.type === 'idea.submitted' ? { status: 503, headers: { 'Retry-After': '4' } } : { status: 200 }));
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'retrying');
    expect(delivery.responseStatus).toBe(503);
    // Retry-After (4 s) wins over the 1 s schedule.
    const wait = Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.lastAttemptAt);
    expect(wait).toBeGreaterThanOrEqual(3900);
    const attempts = await target.waitForRequests(2, { filter: eventsFor(ideaId), timeoutMs: 15_000 });
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(3900);
  });

  it('marks a delivery failed and parks it in the dead-letter queue when the attempts run out', async () => {
    const target = await receiver((request) => (request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 500 }));
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    // The first attempt and one per delay of WEBHOOK_RETRY_DELAYS=1,1,1.
    await target.waitForRequests(4, { filter: eventsFor(ideaId), timeoutMs: 25_000 });
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'failed');
    expect(delivery).toMatchObject({ outcome: 'failed', attempt: 4, responseStatus: 500, error: 'the receiver answered 500', nextAttemptAt: null });

    const sqs = new SQSClient({ endpoint: sandbox.sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const letter = await eventually(
      async () => {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: sandbox.queues.webhookDeadLetters, MaxNumberOfMessages: 10, VisibilityTimeout: 0, WaitTimeSeconds: 1 }),
        );
        return Messages.find((m) => JSON.parse(m.Body!).webhookId === hook.id);
      },
      (found) => found !== undefined,
    );
    expect(JSON.parse(letter!.Body!)).toEqual({
      workspace: ws.slug,
      webhookId: hook.id,
      eventId: delivery.eventId,
      attempt: 4,
      reason: 'attempts_exhausted',
      failedAt: expect.any(String),
      lastStatus: 500,
      lastError: 'the receiver answered 500',
    });
    await sqs.send(new DeleteMessageCommand({ QueueUrl: sandbox.queues.webhookDeadLetters, ReceiptHandle: letter!.ReceiptHandle! }));
    await new Promise((r) => setTimeout(r, 1500));
    expect(target.requests.filter(eventsFor(ideaId))).toHaveLength(4);
  });

  it('disables the webhook when the receiver answers 410 Gone', async () => {
    const target = await receiver((request) => (request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 410 }));
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'failed');
    expect(delivery).toMatchObject({ attempt: 1, responseStatus: 410, error: 'the receiver answered 410 Gone; the webhook was disabled' });
    expect((await api.get(`/webhooks/${hook.id}`)).body.webhook.enabled).toBe(false);
  });

  it('treats a redirect as a failure and never follows it', async () => {
    const elsewhere = await receiver();
    const target = await receiver((request) =>
      request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 302, headers: { Location: elsewhere.url } },
    );
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.attempts.length >= 1);
    expect(delivery.attempts.at(-1)).toMatchObject({ outcome: 'failed', responseStatus: 302, error: 'redirect (302) not followed' });
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('secret rotation, URL changes and redelivery', () => {
  it('signs with the new secret after rotation; the old one is never used again', async () => {
    const target = await receiver();
    const hook = await enabledWebhook(target);
    const rotated = await api.post(`/webhooks/${hook.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook.enabled).toBe(false);
    const newSecret = rotated.body.webhook.secret;

    const whileDisabled = await putIdea(ws.slug);
    // Let the pipeline process that change while the webhook is still disabled.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api.post(`/webhooks/${hook.id}/enable`)).status).toBe(200);
    const verification = target.requests.filter((r) => r.json?.type === 'webhook.verification').at(-1)!;
    expect(verification.headers.authorization).toBe(`Bearer ${newSecret}`);
    verifySignature(newSecret, verification);

    const ideaId = await putIdea(ws.slug);
    const [request] = await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(request!.headers.authorization).toBe(`Bearer ${newSecret}`);
    verifySignature(newSecret, request!);
    expect(() => verifySignature(hook.secret, request!)).toThrow();
    expect(target.requests.filter(eventsFor(whileDisabled))).toHaveLength(0);
  });

  it('stops delivering to a webhook whose URL changed until it is enabled again', async () => {
    const oldTarget = await receiver();
    const newTarget = await receiver();
    const hook = await enabledWebhook(oldTarget);
    const patched = await api.patch(`/webhooks/${hook.id}`, { body: { url: newTarget.url } });
    expect(patched.body.webhook).toMatchObject({ url: newTarget.url, enabled: false });
    const ideaId = await putIdea(ws.slug);
    await new Promise((r) => setTimeout(r, 1500));
    expect(oldTarget.requests.filter(eventsFor(ideaId))).toHaveLength(0);
    expect(newTarget.requests).toHaveLength(0);
  });

  it('cancels queued retries when the webhook is disabled', async () => {
    const target = await receiver((request) => (request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 500 }));
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'retrying');
    await api.post(`/webhooks/${hook.id}/disable`);
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'cancelled', 10_000);
    expect(delivery).toMatchObject({ attempt: 1, error: 'the webhook was disabled', nextAttemptAt: null });
    expect(target.requests.filter(eventsFor(ideaId))).toHaveLength(1);
  });

  it('redelivers a delivered event with the same webhook-id', async () => {
    const target = await receiver();
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    const [first] = await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'delivered');

    const res = await api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ ok: true });
    const again = await target.waitForRequests(2, { filter: eventsFor(ideaId) });
    expect(again[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again[1]!.body).toBe(first!.body);
    verifySignature(hook.secret, again[1]!);
    const [after] = await eventually(() => deliveries(hook.id), (l) => l[0]?.attempt === 2 && l[0]?.outcome === 'delivered');
    expect(after.attempts.map((a: any) => a.attempt)).toEqual([2, 1]);
  });

  it('redelivers a failed delivery with a fresh round of attempts', async () => {
    let healthy = false;
    const target = await receiver((request) => (request.json?.type === 'webhook.verification' || healthy ? { status: 200 } : { status: 500 }));
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(4, { filter: eventsFor(ideaId), timeoutMs: 25_000 });
    const [failed] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'failed');
    healthy = true;
    expect((await api.post(`/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`)).status).toBe(202);
    const [delivered] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'delivered');
    expect(delivered.attempt).toBe(5);
  });

  it('refuses to redeliver to a disabled webhook, and answers 404 for an unknown delivery', async () => {
    const target = await receiver();
    const hook = await enabledWebhook(target);
    const ideaId = await putIdea(ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(() => deliveries(hook.id), (l) => l[0]?.outcome === 'delivered');
    const unknown = `evt_${'0'.repeat(39)}`;
    expect((await api.post(`/webhooks/${hook.id}/deliveries/${unknown}/redeliver`)).status).toBe(404);
    expect((await api.post(`/webhooks/${hook.id}/deliveries/not-an-id/redeliver`)).body.error).toBe('invalid_path');
    await api.post(`/webhooks/${hook.id}/disable`);
    const res = await api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('webhook_disabled');
  });
});
