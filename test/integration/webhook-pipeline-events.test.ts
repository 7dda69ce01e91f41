/**
 * The delivery pipeline end to end in the sandbox, on real DynamoDB Local stream records:
 * idea item written → stream → fan-out (the stream handler, fed by the sandbox's event source
 * mapping) → SQS (fauxqs) → delivery handler → a real HTTP receiver on 127.0.0.1. Idea items are
 * written directly (test/support/idea-items.ts) as the contract with the ideas area describes them.
 * This file: which changes become which events, for whom, and what the receiver gets.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { changeModules } from '../../lib/admin/workspaces.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { adminStore, clientFor, newWorkspace } from '../support/fixtures.ts';
import { deleteIdea, PERSONAL_MARKERS, putIdea, updateIdea } from '../support/idea-items.ts';
import { ALL_EVENTS, eventsFor, usePipelineWorkspace } from '../support/webhook-pipeline.ts';
import { eventually, verifySignature } from '../support/webhook-receiver.ts';

const pipeline = usePipelineWorkspace('pipeline-events');

describe('idea changes become signed webhook deliveries', () => {
  it('delivers idea.submitted with a valid Bearer and a Standard Webhooks signature, identifiers only', async () => {
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);

    const [request] = await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBe(`Bearer ${hook.secret}`);
    expect(verifySignature(hook.secret, request!)).toEqual(request!.json);
    expect(request!.headers['webhook-id']).toMatch(/^evt_[0-9a-z]{39}$/);
    expect(request!.json).toEqual({ type: 'idea.submitted', timestamp: expect.any(String), data: { ideaId, workspace: pipeline.ws.slug } });
    for (const marker of [...PERSONAL_MARKERS, 'confidential', 'Private description']) expect(request!.body).not.toContain(marker);

    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (list) => list[0]?.outcome === 'delivered',
    );
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
    const target = await pipeline.receiver();
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug, { status: 'new' });
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await updateIdea(pipeline.ws.slug, ideaId, { status: 'planned' });
    await target.waitForRequests(2, { filter: eventsFor(ideaId) });
    await updateIdea(pipeline.ws.slug, ideaId, { title: 'A new confidential title' });
    await target.waitForRequests(3, { filter: eventsFor(ideaId) });
    await deleteIdea(pipeline.ws.slug, ideaId);
    const received = await target.waitForRequests(4, { filter: eventsFor(ideaId) });

    expect(received.map((r) => r.json.type)).toEqual(['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted']);
    expect(received[1]!.json.data).toEqual({
      ideaId,
      workspace: pipeline.ws.slug,
      previousStatus: 'new',
      status: 'planned',
      statusMessage: null,
      statusMessageAr: null,
      voterCount: 0,
    });
    expect(received[2]!.json.data).toEqual({ ideaId, workspace: pipeline.ws.slug });
    expect(received[3]!.json.data).toEqual({ ideaId, workspace: pipeline.ws.slug });
    for (const r of received) {
      verifySignature(hook.secret, r);
      expect(r.body).not.toContain('confidential');
    }
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(4);

    const list = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l.filter((d) => d.outcome === 'delivered').length >= 4,
    );
    // Newest first: the list order is the reverse of the order the events happened in.
    const ids = received.map((r) => r.headers['webhook-id']).reverse();
    expect(list.map((d) => d.eventId).filter((id) => ids.includes(id))).toEqual(ids);
  });

  it('sends each webhook only the kinds it subscribed to, and nothing to disabled webhooks', async () => {
    const statusOnly = await pipeline.receiver();
    const disabled = await pipeline.receiver();
    await pipeline.enabledWebhook(statusOnly, ['idea.status_changed']);
    const off = await pipeline.api.post('/webhooks', { body: { name: 'Never enabled', url: disabled.url, events: ALL_EVENTS } });
    expect(off.status).toBe(201);

    const ideaId = await putIdea(pipeline.ws.slug, { status: 'new' });
    await updateIdea(pipeline.ws.slug, ideaId, { title: 'edit' });
    await updateIdea(pipeline.ws.slug, ideaId, { status: 'done' });
    const [only] = await statusOnly.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(only!.json.type).toBe('idea.status_changed');
    await new Promise((r) => setTimeout(r, 1500));
    expect(statusOnly.requests.filter(eventsFor(ideaId))).toHaveLength(1);
    expect(disabled.requests).toHaveLength(0);
  });

  it('gives every webhook the same event id for the same change', async () => {
    const first = await pipeline.receiver();
    const second = await pipeline.receiver();
    await pipeline.enabledWebhook(first);
    await pipeline.enabledWebhook(second);
    const ideaId = await putIdea(pipeline.ws.slug);
    const [a] = await first.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [b] = await second.waitForRequests(1, { filter: eventsFor(ideaId) });
    expect(a!.headers['webhook-id']).toBe(b!.headers['webhook-id']);
  });

  it('ignores items that are not ideas, and writes that change no idea version', async () => {
    const target = await pipeline.receiver();
    await pipeline.enabledWebhook(target);
    await adminStore().db.send(
      new PutCommand({
        TableName: adminStore().table,
        Item: { pk: keys.workspacePk(pipeline.ws.slug), sk: 'NOTANIDEA#1', entity: 'Comment', id: 'c1', workspace: pipeline.ws.slug },
      }),
    );
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    await new Promise((r) => setTimeout(r, 1000));
    expect(target.requests.filter((r) => r.json?.type !== 'webhook.verification').map((r) => r.json.data.ideaId)).toEqual([ideaId]);
  });

  it('sends nothing for a workspace whose webhooks module is off', async () => {
    const other = await newWorkspace('pipeline-off');
    const target = await pipeline.receiver();
    const created = await clientFor(other).post('/webhooks', { body: { name: 'x', url: target.url, events: ALL_EVENTS } });
    expect((await clientFor(other).post(`/webhooks/${created.body.webhook.id}/enable`)).status).toBe(200);
    await changeModules(adminStore(), other.slug, { disable: ['webhooks'] });
    await putIdea(other.slug);
    await new Promise((r) => setTimeout(r, 2000));
    expect(target.requests.filter((r) => r.json?.type !== 'webhook.verification')).toHaveLength(0);
  });
});
