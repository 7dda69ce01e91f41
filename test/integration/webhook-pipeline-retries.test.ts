/**
 * The delivery pipeline in the sandbox, on real DynamoDB Local stream records (see
 * webhook-pipeline-events.test.ts): retries with backoff and Retry-After, the dead-letter queue,
 * 410 Gone and redirects. The sandbox runs with WEBHOOK_RETRY_DELAYS=1,1,1: four attempts.
 */
import { describe, expect, it } from 'vitest';
import { putIdea } from '../support/idea-items.ts';
import { eventsFor, takeDeadLetter, usePipelineWorkspace } from '../support/webhook-pipeline.ts';
import { eventually, verifySignature } from '../support/webhook-receiver.ts';

const pipeline = usePipelineWorkspace('pipeline-retries');

describe('retries', () => {
  it('delivers on the third attempt after two failures, with the same webhook-id each time', async () => {
    let failuresLeft = 2;
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'idea.submitted' && failuresLeft-- > 0 ? { status: 500 } : { status: 200 },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    const attempts = await target.waitForRequests(3, { filter: eventsFor(ideaId), timeoutMs: 25_000 });
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    for (const attempt of attempts) verifySignature(hook.secret, attempt);
    // Backoff: about a second apart with the test schedule (WEBHOOK_RETRY_DELAYS=1,1,1, ±20 % jitter).
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(700);

    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'delivered',
    );
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
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'idea.submitted' ? { status: 503, headers: { 'Retry-After': '4' } } : { status: 200 },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'retrying',
    );
    expect(delivery.responseStatus).toBe(503);
    // Retry-After (4 s) wins over the 1 s schedule.
    const wait = Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.lastAttemptAt);
    expect(wait).toBeGreaterThanOrEqual(3900);
    const attempts = await target.waitForRequests(2, { filter: eventsFor(ideaId), timeoutMs: 15_000 });
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(3900);
  });

  it('marks a delivery failed and parks it in the dead-letter queue when the attempts run out', async () => {
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 500 },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    // The first attempt and one per delay of WEBHOOK_RETRY_DELAYS=1,1,1.
    await target.waitForRequests(4, { filter: eventsFor(ideaId), timeoutMs: 25_000 });
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'failed',
    );
    expect(delivery).toMatchObject({
      outcome: 'failed',
      attempt: 4,
      responseStatus: 500,
      error: 'the receiver answered 500',
      nextAttemptAt: null,
    });

    expect(await takeDeadLetter(hook.id, delivery.eventId)).toEqual({
      workspace: pipeline.ws.slug,
      webhookId: hook.id,
      eventId: delivery.eventId,
      attempt: 4,
      reason: 'attempts_exhausted',
      failedAt: expect.any(String),
      lastStatus: 500,
      lastError: 'the receiver answered 500',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(target.requests.filter(eventsFor(ideaId))).toHaveLength(4);
  });

  it('disables the webhook when the receiver answers 410 Gone', async () => {
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 410 },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.outcome === 'failed',
    );
    expect(delivery).toMatchObject({ attempt: 1, responseStatus: 410, error: 'the receiver answered 410 Gone; the webhook was disabled' });
    const { webhook } = (await pipeline.api.get(`/webhooks/${hook.id}`)).body;
    expect(webhook).toMatchObject({
      enabled: false,
      disabledReason: { code: 'gone', lastErrors: [{ status: 410, message: 'the receiver answered 410' }] },
    });
  });

  it('holds the webhook’s other waiting retries when the receiver answers 410 Gone, as disabling does', async () => {
    // The first idea's event is refused with a retry an hour away; the second one's is answered 410.
    let firstIdea: string | undefined;
    const target = await pipeline.receiver((request) => {
      if (request.json?.type === 'webhook.verification') return { status: 200 };
      return request.json?.data?.ideaId === firstIdea ? { status: 503, headers: { 'Retry-After': '3600' } } : { status: 410 };
    });
    const hook = await pipeline.enabledWebhook(target);
    firstIdea = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(firstIdea) });
    await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l.some((d) => d.outcome === 'retrying'),
    );
    const gone = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(gone) });
    // The 410's own delivery is written last, so once it reads `failed` the other retries are settled.
    const deliveries = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l.some((d) => d.outcome === 'failed'),
    );
    const byOutcome = Object.fromEntries(deliveries.map((d) => [d.outcome, d]));
    expect(byOutcome.failed).toMatchObject({ responseStatus: 410, error: 'the receiver answered 410 Gone; the webhook was disabled' });
    expect(byOutcome.held, JSON.stringify(deliveries)).toMatchObject({
      attempt: 1,
      responseStatus: 503,
      error: 'the webhook was disabled: a recovery sends it once it is enabled',
      nextAttemptAt: null,
    });
    expect(deliveries).toHaveLength(2);
  });

  it('treats a redirect as a failure and never follows it', async () => {
    const elsewhere = await pipeline.receiver();
    const target = await pipeline.receiver((request) =>
      request.json?.type === 'webhook.verification' ? { status: 200 } : { status: 302, headers: { Location: elsewhere.url } },
    );
    const hook = await pipeline.enabledWebhook(target);
    const ideaId = await putIdea(pipeline.ws.slug);
    await target.waitForRequests(1, { filter: eventsFor(ideaId) });
    const [delivery] = await eventually(
      () => pipeline.deliveries(hook.id),
      (l) => l[0]?.attempts.length >= 1,
    );
    expect(delivery.attempts.at(-1)).toMatchObject({ outcome: 'failed', responseStatus: 302, error: 'redirect (302) not followed' });
    expect(elsewhere.requests).toHaveLength(0);
  });
});
