/**
 * Every idempotent create of the manifest, retried with the same Idempotency-Key: the retry gets the
 * first answer (status, body, ETag, `Idempotent-Replayed: true`) even where the area's own checks
 * would now refuse it (a category slug the first request took), creates nothing more, and the
 * same key with another body is 409 `idempotency_key_reused`. A create added to the manifest
 * without a case here fails the first test.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { AUTH_CALLS, clientFor, dynamoDbCalls, expectErrorEnvelope, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { publishedSurvey } from '../support/surveys.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let receiver: Receiver;
/** Path parameters of the creates that need a parent record, and ids a body refers to. */
const parents: Record<string, string> = {};

beforeAll(async () => {
  ws = await newWorkspace('replay');
  api = clientFor(ws);
  receiver = await startReceiver();
  const journey = await api.post('/journeys', { body: { titleEn: 'Parent' } });
  const survey = await api.post('/surveys', { body: { name: 'Parent', language: 'en' } });
  const category = await api.post('/knowledge-bank/categories', { body: { nameEn: 'Parent' } });
  const collecting = await publishedSurvey(api);
  const idea = await api.post('/ideas', { body: { title: 'Parent idea' } });
  const webhook = await api.post('/webhooks', { body: { name: 'Parent hook', url: receiver.url, events: ['idea.submitted'] } });
  for (const res of [journey, survey, category, idea, webhook]) expect(res.status, res.text).toBeLessThan(300);
  parents.ideaId = idea.body.data.id;
  parents.webhookId = webhook.body.webhook.id;
  // A recovery is for an enabled webhook: the enable step's verification event reaches the receiver.
  const enabled = await api.post(`/webhooks/${parents.webhookId}/enable`);
  expect(enabled.status, enabled.text).toBe(200);
  parents.collectingSurveyId = collecting.surveyId;
  parents.journeyId = journey.body.journeyId;
  parents.journeyVersionId = journey.body.version.id;
  parents.id = survey.body.survey.id;
  parents.categoryId = category.body.category.id;
});

afterAll(async () => {
  await receiver?.close();
});

/** A first request's body per create; where the area checks something the first request changes (a slug), the body makes it so. */
const bodies: Record<string, () => Record<string, unknown>> = {
  createIdea: () => ({ title: 'Replayed idea' }),
  voteOnIdea: () => ({ voter: { externalId: 'customer-replayed' }, importance: 'important' }),
  createIdeaComment: () => ({ body: 'Replayed comment', author: { externalId: 'customer-replayed' } }),
  createJourney: () => ({ titleEn: 'Replayed journey' }),
  createMicroJourney: () => ({ titleEn: 'Replayed micro journey' }),
  createJourneyVersion: () => ({ fromVersionId: parents.journeyVersionId, label: 'Replayed' }),
  createKnowledgeBankCategory: () => ({ nameEn: 'Billing', slug: 'billing-replayed' }),
  createKnowledgeBankArticle: () => ({ categoryId: parents.categoryId, titleEn: 'How to pay', slug: 'how-to-pay-replayed' }),
  createSurvey: () => ({ name: 'Replayed survey', language: 'en' }),
  createSurveyDesign: () => ({ name: 'Replayed brand', primaryColor: '#0B5FFF' }),
  createSurveyVersion: () => ({}),
  createWebhook: () => ({ name: 'Replayed hook', url: receiver.url, events: ['idea.submitted'] }),
  // Whole seconds inside the deliveries' retention: an hour ago.
  recoverWebhook: () => ({ since: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000).toISOString() }),
  submitSurveyResponse: () => ({ answers: { plan: 'pro' }, finished: false }),
  createSurveyExport: () => ({ format: 'csv', labels: 'ids' }),
};

/** Creates whose path names another parent than the one its parameter is called by. */
const parentOf: Record<string, Record<string, string>> = {
  submitSurveyResponse: { id: 'collectingSurveyId' },
  voteOnIdea: { id: 'ideaId' },
  createIdeaComment: { id: 'ideaId' },
  recoverWebhook: { id: 'webhookId' },
};

/**
 * Reads a replay makes beyond authentication's and the one read of the record as it is now, where the
 * answer is advice looked up again (docs/latency.md): createIdea's possible duplicates, a Query of the
 * newest ideas then a BatchGetItem of the candidates.
 */
const lookedUpAgain: Record<string, number> = { createIdea: 1 };

const creates = routes.filter((route) => route.idempotent);

describe('Idempotency-Key on every idempotent create', () => {
  it('has a case for every idempotent route of the manifest', () => {
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.map((route) => route.operationId).sort()).toEqual(Object.keys(bodies).sort());
  });

  it.each(creates.map((route) => [route.operationId, route] as const))(
    '%s: a retry gets the first answer, before any check of the area, and another body under the key is 409',
    async (_, route) => {
      const path = route.path.replace(/\{(\w+)\}/g, (__, name: string) => parents[parentOf[route.operationId]?.[name] ?? name] ?? '');
      const headers = { 'Idempotency-Key': randomUUID() };
      const body = bodies[route.operationId]!();
      const first = await api.post(path, { body, headers });
      expect(first.status, first.text).toBe(route.response.status);
      expect(first.headers.get('idempotent-replayed')).toBeNull();

      const again = await api.post(path, { body, headers });
      expect(again.status, again.text).toBe(first.status);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      // Authentication's calls (the remembered response read beside the workspace), and at most
      // one read of the record as it is now (a webhook's current secret, an article's draft).
      expect(dynamoDbCalls(again)).toBeLessThanOrEqual(AUTH_CALLS + 1 + (lookedUpAgain[route.operationId] ?? 0));

      const other = await api.post(path, { body: { ...body, ...otherBody(route.operationId) }, headers });
      expectErrorEnvelope(other, 409, 'idempotency_key_reused');
    },
  );

  it('creates nothing more on a replay: one category, one survey version', async () => {
    const categories = await api.get('/knowledge-bank/categories');
    expect(categories.body.categories.filter((c: { slug: string }) => c.slug === 'billing-replayed')).toHaveLength(1);
    const survey = await api.get(`/surveys/${parents.id}`);
    expect(survey.body.versions).toHaveLength(2);
  });
});

/** A body that differs from the first request's in one field the route accepts. */
function otherBody(operationId: string): Record<string, unknown> {
  switch (operationId) {
    case 'createIdea':
      return { title: 'Another idea' };
    case 'createJourney':
    case 'createMicroJourney':
    case 'createKnowledgeBankArticle':
      return { titleEn: 'Another title' };
    case 'createJourneyVersion':
      return { label: 'Another label' };
    case 'createKnowledgeBankCategory':
      return { nameEn: 'Another name' };
    case 'createSurvey':
    case 'createSurveyDesign':
    case 'createWebhook':
      return { name: 'Another name' };
    case 'voteOnIdea':
      return { importance: 'critical' };
    case 'createIdeaComment':
      return { body: 'Another comment' };
    case 'recoverWebhook':
      return { since: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 7_200_000).toISOString() };
    case 'submitSurveyResponse':
      return { answers: { plan: 'free' } };
    case 'createSurveyExport':
      return { format: 'jsonl' };
    case 'createSurveyVersion':
      return { fromVersionId: randomUUID() };
    default:
      throw new Error(`No other body for ${operationId}`);
  }
}
