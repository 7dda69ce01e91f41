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
  for (const res of [journey, survey, category]) expect(res.status, res.text).toBeLessThan(300);
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
  createJourney: () => ({ titleEn: 'Replayed journey' }),
  createMicroJourney: () => ({ titleEn: 'Replayed micro journey' }),
  createJourneyVersion: () => ({ fromVersionId: parents.journeyVersionId, label: 'Replayed' }),
  createKnowledgeBankCategory: () => ({ nameEn: 'Billing', slug: 'billing-replayed' }),
  createKnowledgeBankArticle: () => ({ categoryId: parents.categoryId, titleEn: 'How to pay', slug: 'how-to-pay-replayed' }),
  createSurvey: () => ({ name: 'Replayed survey', language: 'en' }),
  createSurveyDesign: () => ({ name: 'Replayed brand', primaryColor: '#0B5FFF' }),
  createSurveyVersion: () => ({}),
  createWebhook: () => ({ name: 'Replayed hook', url: receiver.url, events: ['idea.submitted'] }),
  submitSurveyResponse: () => ({ answers: { plan: 'pro' }, finished: false }),
  createSurveyExport: () => ({ format: 'csv', labels: 'ids' }),
};

/** Creates whose path names another parent than the one its parameter is called by. */
const parentOf: Record<string, Record<string, string>> = { submitSurveyResponse: { id: 'collectingSurveyId' } };

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
      expect(dynamoDbCalls(again)).toBeLessThanOrEqual(AUTH_CALLS + 1);

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
