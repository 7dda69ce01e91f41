/**
 * End to end through the public API only, as an integrator sees it: create a webhook, enable it
 * (verification), then create, change and delete ideas through the Ideas API, and watch signed,
 * identifier-only deliveries arrive at a real receiver on 127.0.0.1 (the sandbox allows private
 * networks), including retries, the dead-letter queue, rotation and URL changes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientFor, type TestWorkspace } from '../support/fixtures.ts';
import { ideasWorkspace } from '../support/ideas.ts';
import { takeDeadLetter } from '../support/webhook-pipeline.ts';
import {
  eventually,
  type ReceivedRequest,
  type Receiver,
  type Responder,
  startReceiver,
  verifySignature,
} from '../support/webhook-receiver.ts';

const ALL_EVENTS = ['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted'];
const PRIVATE = { name: 'Jane Submitter', email: 'jane.submitter@example.com', externalId: 'crm-4471' };
const CONTEXT = { plan: 'enterprise', churnRisk: 'high', note: 'VIP since 2019' };

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let receiver: Receiver;

beforeEach(async () => {
  ws = await ideasWorkspace('hooks-e2e');
  api = clientFor(ws);
});

afterEach(async () => {
  await receiver?.close();
});

async function webhookOn(responder?: Responder, events = ALL_EVENTS): Promise<{ id: string; secret: string }> {
  receiver = await startReceiver(responder);
  const created = await api.post('/webhooks', { body: { name: 'Integration', url: receiver.url, events } });
  expect(created.status, created.text).toBe(201);
  const enabled = await api.post(`/webhooks/${created.body.webhook.id}/enable`);
  expect(enabled.status, enabled.text).toBe(200);
  return { id: created.body.webhook.id, secret: created.body.webhook.secret };
}

async function newIdea(body: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/ideas', {
    body: { title: 'Dark mode for the portal', submitter: PRIVATE, customerContext: CONTEXT, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

const about = (ideaId: string) => (r: ReceivedRequest) => r.json?.data?.ideaId === ideaId;
const failUnlessVerification =
  (status: number): Responder =>
  (request) =>
    request.json?.type === 'webhook.verification' ? { status: 200 } : { status };

async function deliveries(webhookId: string) {
  const res = await api.get(`/webhooks/${webhookId}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries as any[];
}

function expectNoPersonalData(request: ReceivedRequest): void {
  for (const secret of [PRIVATE.name, PRIVATE.email, PRIVATE.externalId, 'churnRisk', 'VIP since', 'Dark mode', 'Sunset']) {
    expect(request.body).not.toContain(secret);
  }
}

describe('ideas changed through the API reach the webhook', () => {
  it('create, status change, edit, replace and delete arrive signed, in order, with identifiers only', async () => {
    const hook = await webhookOn();
    const ideaId = await newIdea({ status: 'new' });
    await receiver.waitForRequests(1, { filter: about(ideaId) });
    expect((await api.patch(`/ideas/${ideaId}`, { body: { status: 'planned' } })).status).toBe(200);
    await receiver.waitForRequests(2, { filter: about(ideaId) });
    expect((await api.patch(`/ideas/${ideaId}`, { body: { description: 'Sunset the light theme' } })).status).toBe(200);
    await receiver.waitForRequests(3, { filter: about(ideaId) });
    expect((await api.put(`/ideas/${ideaId}`, { body: { title: 'Dark mode, everywhere', status: 'planned' } })).status).toBe(200);
    await receiver.waitForRequests(4, { filter: about(ideaId) });
    expect((await api.delete(`/ideas/${ideaId}`)).status).toBe(200);
    const received = await receiver.waitForRequests(5, { filter: about(ideaId) });

    expect(received.map((r) => r.json)).toEqual([
      { type: 'idea.submitted', timestamp: expect.any(String), data: { ideaId, workspace: ws.slug } },
      {
        type: 'idea.status_changed',
        timestamp: expect.any(String),
        data: {
          ideaId,
          workspace: ws.slug,
          previousStatus: 'new',
          status: 'planned',
          statusMessage: null,
          statusMessageAr: null,
          voterCount: 0,
        },
      },
      { type: 'idea.updated', timestamp: expect.any(String), data: { ideaId, workspace: ws.slug } },
      { type: 'idea.updated', timestamp: expect.any(String), data: { ideaId, workspace: ws.slug } },
      { type: 'idea.deleted', timestamp: expect.any(String), data: { ideaId, workspace: ws.slug } },
    ]);
    for (const request of received) {
      expect(request.headers.authorization).toBe(`Bearer ${hook.secret}`);
      expect(verifySignature(hook.secret, request)).toEqual(request.json);
      expectNoPersonalData(request);
    }
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(5);

    const list = await eventually(
      () => deliveries(hook.id),
      (l) => l.length === 5 && l.every((d) => d.outcome === 'delivered'),
    );
    expect(list.map((d) => d.eventType)).toEqual(['idea.deleted', 'idea.updated', 'idea.updated', 'idea.status_changed', 'idea.submitted']);
    const page = await api.get(`/webhooks/${hook.id}/deliveries?limit=2&offset=1`);
    expect(page.body.deliveries.map((d: any) => d.id)).toEqual(list.slice(1, 3).map((d) => d.id));
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, hasMore: true, nextCursor: expect.any(String) });
  });

  it('the status label of a status change is the configured label, and other subscribers see only their kinds', async () => {
    const hook = await webhookOn(undefined, ['idea.status_changed']);
    const ideaId = await newIdea();
    await api.patch(`/ideas/${ideaId}`, { body: { title: 'Dark mode (renamed)' } });
    await api.patch(`/ideas/${ideaId}`, { body: { status: 'done' } });
    const [only] = await receiver.waitForRequests(1, { filter: about(ideaId) });
    expect(only!.json.data).toEqual({
      ideaId,
      workspace: ws.slug,
      previousStatus: null,
      status: 'done',
      statusMessage: null,
      statusMessageAr: null,
      voterCount: 0,
    });
    verifySignature(hook.secret, only!);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests.filter(about(ideaId))).toHaveLength(1);
  });
});

describe('votes, comments, merges and status messages reach the webhook (issue 39)', () => {
  it('as identifiers only, and the status change tells the message and how many voted', async () => {
    const hook = await webhookOn(undefined, [
      'idea.status_changed',
      'idea.voted',
      'idea.unvoted',
      'idea.commented',
      'idea.merged',
      'idea.unmerged',
    ]);
    const ideaId = await newIdea({ status: 'new' });
    const targetId = await newIdea();
    const vote = (await api.post(`/ideas/${ideaId}/votes`, { body: { voter: { email: PRIVATE.email }, importance: 'critical' } })).body
      .vote;
    await receiver.waitForRequests(1, { filter: about(ideaId) });
    // Voting again only changes the note: no second idea.voted.
    await api.post(`/ideas/${ideaId}/votes`, { body: { voter: { email: PRIVATE.email }, note: 'Dark mode please' } });
    await api.post(`/ideas/${ideaId}/votes`, { body: { voter: { externalId: PRIVATE.externalId } } });
    await receiver.waitForRequests(2, { filter: about(ideaId) });
    const comment = (
      await api.post(`/ideas/${ideaId}/comments`, { body: { body: 'Sunset the light theme', author: { ...PRIVATE, email: undefined } } })
    ).body.comment;
    await receiver.waitForRequests(3, { filter: about(ideaId) });
    await api.patch(`/ideas/${ideaId}`, { body: { status: 'planned', statusMessage: 'Planned for spring', statusMessageAr: 'مخطط له' } });
    await receiver.waitForRequests(4, { filter: about(ideaId) });
    await api.delete(`/ideas/${ideaId}/votes/${vote.id}`);
    await receiver.waitForRequests(5, { filter: about(ideaId) });
    await api.post(`/ideas/${ideaId}/merge`, { body: { into: targetId }, headers: { 'If-Match': '"2"' } });
    await receiver.waitForRequests(6, { filter: about(ideaId) });
    await api.post(`/ideas/${ideaId}/unmerge`, { headers: { 'If-Match': '"3"' } });
    const received = await receiver.waitForRequests(7, { filter: about(ideaId) });

    const data = { ideaId, workspace: ws.slug };
    expect(received.map((r) => r.json)).toEqual(
      [
        { type: 'idea.voted', data: { ...data, voteId: vote.id, importance: 'critical' } },
        { type: 'idea.voted', data: { ...data, voteId: expect.any(String), importance: 'nice' } },
        { type: 'idea.commented', data: { ...data, commentId: comment.id, visibility: 'public' } },
        {
          type: 'idea.status_changed',
          data: {
            ...data,
            previousStatus: 'new',
            status: 'planned',
            statusMessage: 'Planned for spring',
            statusMessageAr: 'مخطط له',
            voterCount: 2,
          },
        },
        { type: 'idea.unvoted', data: { ...data, voteId: vote.id } },
        { type: 'idea.merged', data: { ...data, mergedInto: targetId } },
        { type: 'idea.unmerged', data: { ...data, unmergedFrom: targetId } },
      ].map((event) => ({ ...event, timestamp: expect.any(String) })),
    );
    for (const request of received) {
      expect(verifySignature(hook.secret, request)).toEqual(request.json);
      expectNoPersonalData(request);
      expect(request.body).not.toContain(vote.voterRef);
    }
    // The votes the merge carried onto the target are no idea.voted: only what customers did is.
    expect(receiver.requests.filter(about(targetId))).toHaveLength(0);
  });
});

describe('retries and failures on API-created ideas', () => {
  it('a receiver failing twice then succeeding gets the event on the third attempt, with the same webhook-id', async () => {
    let failuresLeft = 2;
    const hook = await webhookOn((request) =>
      request.json?.type === 'idea.submitted' && failuresLeft-- > 0 ? { status: 503 } : { status: 200 },
    );
    const ideaId = await newIdea();
    const attempts = await receiver.waitForRequests(3, { filter: about(ideaId), timeoutMs: 25_000 });
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    expect(attempts.map((a) => a.body)).toEqual([attempts[0]!.body, attempts[0]!.body, attempts[0]!.body]);
    for (const attempt of attempts) verifySignature(hook.secret, attempt);
    const [delivery] = await eventually(
      () => deliveries(hook.id),
      (l) => l[0]?.outcome === 'delivered',
    );
    expect(delivery.attempt).toBe(3);
    expect(delivery.attempts.map((a: any) => a.responseStatus)).toEqual([200, 503, 503]);
  });

  it('a receiver that always fails: the delivery ends failed and its message lands in the dead-letter queue', async () => {
    const hook = await webhookOn(failUnlessVerification(500));
    const ideaId = await newIdea();
    await receiver.waitForRequests(4, { filter: about(ideaId), timeoutMs: 25_000 });
    const [delivery] = await eventually(
      () => deliveries(hook.id),
      (l) => l[0]?.outcome === 'failed',
    );
    expect(delivery).toMatchObject({ attempt: 4, responseStatus: 500, nextAttemptAt: null });

    expect(await takeDeadLetter(hook.id, delivery.eventId)).toMatchObject({
      webhookId: hook.id,
      workspace: ws.slug,
      reason: 'attempts_exhausted',
      lastStatus: 500,
    });
  });
});

describe('rotation and URL changes', () => {
  it('after rotation the webhook is disabled; once enabled again, deliveries carry only the new secret', async () => {
    const hook = await webhookOn();
    const rotated = await api.post(`/webhooks/${hook.id}/rotate`);
    expect(rotated.body.webhook).toMatchObject({ enabled: false });
    const newSecret = rotated.body.webhook.secret;
    expect((await api.post(`/webhooks/${hook.id}/enable`)).status).toBe(200);

    const ideaId = await newIdea();
    const [request] = await receiver.waitForRequests(1, { filter: about(ideaId) });
    expect(request!.headers.authorization).toBe(`Bearer ${newSecret}`);
    expect(verifySignature(newSecret, request!)).toEqual(request!.json);
    expect(() => verifySignature(hook.secret, request!)).toThrow();
    expect(
      receiver.requests.some((r) => r.headers.authorization === `Bearer ${hook.secret}` && r.json?.type !== 'webhook.verification'),
    ).toBe(false);
  });

  it('a URL change disables the webhook: nothing is sent anywhere until it is enabled at the new URL', async () => {
    const hook = await webhookOn();
    const newReceiver = await startReceiver();
    try {
      const patched = await api.patch(`/webhooks/${hook.id}`, { body: { url: newReceiver.url } });
      expect(patched.body.webhook).toMatchObject({ url: newReceiver.url, enabled: false });
      const missed = await newIdea();
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.requests.filter(about(missed))).toHaveLength(0);
      expect(newReceiver.requests).toHaveLength(0);

      expect((await api.post(`/webhooks/${hook.id}/enable`)).status).toBe(200);
      const ideaId = await newIdea();
      const [request] = await newReceiver.waitForRequests(1, { filter: about(ideaId) });
      verifySignature(hook.secret, request!);
      expect(receiver.requests.filter(about(ideaId))).toHaveLength(0);
    } finally {
      await newReceiver.close();
    }
  });
});
