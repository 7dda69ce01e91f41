/**
 * A finished survey response reaches a webhook receiver through the existing pipeline (table
 * stream → fan-out → delivery queue → delivery), with identifiers only: created finished, and a
 * partial one on the continuation that finishes it; partial writes and deletions send nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, expectErrorEnvelope, newKey, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { publishedSurvey } from '../support/surveys.ts';
import { type ReceivedRequest, type Receiver, startReceiver, verifySignature } from '../support/webhook-receiver.ts';

const answers = { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 9 };
const PRIVATE = { email: 'rania.private@example.com', externalId: 'crm-9921' };

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  ws = await newWorkspace('responses-hooks');
  api = clientFor(ws);
  receiver = await startReceiver();
  const created = await api.post('/webhooks', { body: { name: 'Responses', url: receiver.url, events: ['survey.response.finished'] } });
  expect(created.status, created.text).toBe(201);
  secret = created.body.webhook.secret;
  expect((await api.post(`/webhooks/${created.body.webhook.id}/enable`)).status).toBe(200);
});

afterAll(async () => {
  await receiver?.close();
});

const about = (responseId: string) => (r: ReceivedRequest) => r.json?.data?.responseId === responseId;

describe('survey.response.finished', () => {
  it('may only be subscribed to by a key that may read responses', async () => {
    const key = await newKey(ws.slug, ['webhooks:read', 'webhooks:write', 'ideas:read']);
    const hooks = clientFor({ host: ws.host, key: key.key });
    const body = { name: 'Nosy', url: receiver.url, events: ['survey.response.finished'] };
    expectErrorEnvelope(await hooks.post('/webhooks', { body }), 403, 'missing_permission');
    const ideasOnly = await hooks.post('/webhooks', { body: { ...body, events: ['idea.submitted'] } });
    expect(ideasOnly.status, ideasOnly.text).toBe(201);
    const widened = await hooks.patch(`/webhooks/${ideasOnly.body.webhook.id}`, { body: { events: ['survey.response.finished'] } });
    expectErrorEnvelope(widened, 403, 'missing_permission');
  });

  it('arrives signed, with identifiers only, once per finished response', async () => {
    const { surveyId, versionId } = await publishedSurvey(api);
    const finished = await api.post(`/surveys/${surveyId}/responses`, { body: { answers, respondent: PRIVATE } });
    expect(finished.status, finished.text).toBe(201);
    const partial = await api.post(`/surveys/${surveyId}/responses`, {
      body: { answers: { plan: 'pro' }, finished: false, respondent: PRIVATE },
    });
    const partialId = partial.body.response.id;
    const url = `/surveys/${surveyId}/responses/${partialId}`;
    expect((await api.patch(url, { body: { answers: { channels: ['mail'] } }, headers: { 'If-Match': '"1"' } })).status).toBe(200);
    expect(
      (await api.patch(url, { body: { answers: { favourite: 'mail', score: 3 }, finished: true }, headers: { 'If-Match': '"2"' } })).status,
    ).toBe(200);
    expect((await api.delete(url)).status).toBe(200);

    const [first] = await receiver.waitForRequests(1, { filter: about(finished.body.response.id) });
    const [second] = await receiver.waitForRequests(1, { filter: about(partialId) });
    for (const [request, responseId] of [
      [first, finished.body.response.id],
      [second, partialId],
    ] as [ReceivedRequest, string][]) {
      expect(request.json).toEqual({
        type: 'survey.response.finished',
        timestamp: expect.any(String),
        data: { workspace: ws.slug, surveyId, versionId, responseId },
      });
      expect(verifySignature(secret, request)).toEqual(request.json);
      for (const hidden of [PRIVATE.email, PRIVATE.externalId, 'chat', 'mail']) expect(request.body).not.toContain(hidden);
    }
    // The partial writes and the delete sent nothing more about that response.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.requests.filter(about(partialId))).toHaveLength(1);
  });
});
