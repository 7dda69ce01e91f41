/**
 * The request and response examples of the OpenAPI document and the reference page
 * (lib/api-examples.json) are recorded here, from real requests to the sandbox, one scripted walk
 * through every operation of the manifest. Ids, times, secrets, cursors and the workspace are
 * replaced by stable stand-ins, so a recording is the same on every run: this test fails when the
 * committed examples differ from a fresh recording (the API changed), and `npm run docs:examples`
 * records them again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { routes } from '../../lib/manifest.ts';
import type { ApiExample } from '../../lib/platform/openapi.ts';
import type { WebhookEvent } from '../../lib/webhooks/events.ts';
import { adminStore, call, newWorkspace, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';
import { cleanContent } from '../support/journeys.ts';
import { linkTo, para } from '../support/knowledge-bank.ts';
import { importTestDirectory } from '../support/sop-fixtures.ts';
import { submitResponse } from '../support/survey-responses.ts';
import { routedDefinition } from '../support/surveys.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const EXAMPLES_FILE = resolve(import.meta.dirname, '../../lib/api-examples.json');
const RECEIVER_STAND_IN = 'https://hooks.example.com/portal';

let ws: TestWorkspace;
let receiver: Receiver;
const recorded = new Map<string, ApiExample>();

beforeAll(async () => {
  ws = await newWorkspace('acme');
  await setIdeaLabels(adminStore(), ws.slug, { statuses: ['new', 'planned', 'done'], modules: ['billing', 'mobile-app'] });
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

/** Calls the API and records the first call of each operation as its example. */
async function record(
  operationId: string,
  path: string,
  options: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<any> {
  const route = routes.find((r) => r.operationId === operationId)!;
  const res = await call(route.method, path, { host: ws.host, key: ws.key, ...options });
  expect(res.status, `${operationId}: ${res.text}`).toBe(route.response.status);
  if (!recorded.has(operationId)) {
    const [pathOnly, query] = path.split('?');
    recorded.set(operationId, {
      request: {
        path: pathOnly!,
        ...(query ? { query } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.body ? { body: options.body } : {}),
      },
      response: { status: res.status, body: operationId === 'getOpenApiDocument' ? { openapi: '3.1.0', info: res.body.info } : res.body },
    });
  }
  return res;
}

/**
 * Two responses written as the responses area stores them, once the aggregator has counted them, so
 * the summary example shows numbers (the responses API is another branch's; contract §1).
 */
async function summarisedResponses(surveyId: string, versionId: string): Promise<void> {
  const answered = { surveyId, versionId, path: ['plan', 'channels', 'favourite', 'score'] };
  await submitResponse(ws.slug, {
    ...answered,
    status: 'finished',
    answers: { plan: 'pro', channels: ['chat', 'api'], favourite: 'chat', score: 9 },
    secondsToFinish: 48,
    createdAt: '2026-11-02T09:30:00.000Z',
  });
  await submitResponse(ws.slug, {
    ...answered,
    status: 'partial',
    path: ['plan', 'channels'],
    answers: { plan: 'free' },
    createdAt: '2026-11-03T10:00:00.000Z',
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await call('GET', `/surveys/${surveyId}/summary`, { host: ws.host, key: ws.key });
    if (res.body?.summary?.responses?.started === 2) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The summary did not count the example responses within 10 s');
}

/** Stable stand-ins for what differs on every run: the same value gets the same stand-in throughout. */
function normalize(value: unknown): unknown {
  const uuids = new Map<string, string>();
  const uuidOf = (uuid: string) => {
    if (!uuids.has(uuid)) {
      const n = (uuids.size + 1).toString(16).padStart(12, '0');
      uuids.set(uuid, `0195f2a0-7c1e-7000-8000-${n}`);
    }
    return uuids.get(uuid)!;
  };
  // Knowledge-bank link ids: 16 base64url characters of a hash over the (random) block id.
  const linkIds = new Map<string, string>();
  const linkIdOf = (id: string) => {
    if (!linkIds.has(id)) linkIds.set(id, `kbLink${String(linkIds.size + 1).padStart(10, '0')}`);
    return linkIds.get(id)!;
  };
  const text = JSON.stringify(value, null, 1)
    .replaceAll(receiver.url, RECEIVER_STAND_IN)
    .replaceAll(ws.slug, 'acme')
    .replaceAll(ws.keyId, 'Q1w2E3r4T5y6')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (uuid) => uuidOf(uuid.toLowerCase()))
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '2026-03-02T09:30:00.000Z')
    .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
    .replace(/"nextCursor": "[^"]+"/g, '"nextCursor": "eyJ2IjoxLCJ3IjoiYWNtZSJ9.Q2hhbmdlcyBvbiBldmVyeSBjYWxs"')
    .replace(/"durationMs": \d+/g, '"durationMs": 84')
    .replace(/"id": "([A-Za-z0-9_-]{16})"/g, (_, id: string) => `"id": "${linkIdOf(id)}"`);
  return JSON.parse(text);
}

describe('API examples (lib/api-examples.json)', () => {
  it('are a fresh recording of one real call of every operation', async () => {
    await record('getOpenApiDocument', '/openapi.json');
    await record('getApiReference', '/docs');
    recorded.set('getApiReference', {
      request: { path: '/docs' },
      response: { status: 200, body: '<!DOCTYPE html><html><head><title>Customer Experience Portal API reference</title>…' },
    });
    await record('getMe', '/me');
    await record('getApiIndex', '');

    // Ideas
    await record('getIdeaLabels', '/ideas/labels');
    const idea = await record('createIdea', '/ideas', {
      headers: { 'Idempotency-Key': '7d0e1c52-1f6a-4b4e-9a57-6a3c2f1d9b10' },
      body: {
        title: 'Dark mode for the portal',
        description: 'Our agents work night shifts.',
        status: 'new',
        module: 'mobile-app',
        submitter: { email: 'ann@example.com' },
      },
    });
    await record('createIdea', '/ideas', { body: { title: 'Export ideas as CSV', status: 'new', module: 'billing' } });
    const id = idea.body.data.id;
    await record('listIdeas', '/ideas?limit=1');
    await record('getIdea', `/ideas/${id}`);
    await record('updateIdea', `/ideas/${id}`, { headers: { 'If-Match': '"1"' }, body: { status: 'planned' } });
    await record('replaceIdea', `/ideas/${id}`, {
      headers: { 'If-Match': '"2"' },
      body: { title: 'Dark mode everywhere', description: 'Web and mobile', status: 'planned', module: 'mobile-app' },
    });
    await record('deleteIdea', `/ideas/${id}`, { headers: { 'If-Match': '"3"' } });

    // Journeys
    const content = cleanContent();
    await record('validateJourneyContent', '/journeys/validate', { body: { content } });
    const journey = await record('createJourney', '/journeys', { body: { titleEn: 'Onboarding', titleAr: 'رحلة' } });
    const made = { journeyId: journey.body.journeyId as string, versionId: journey.body.version.id as string };
    const versionPath = `/journeys/${made.journeyId}/versions/${made.versionId}`;
    await record('createMicroJourney', `/journeys/${made.journeyId}/micro-journeys`, { body: { titleEn: 'Checkout', stageId: 'buy' } });
    await record('listJourneys', '/journeys?limit=1');
    await record('getJourney', `/journeys/${made.journeyId}`);
    await record('updateJourney', `/journeys/${made.journeyId}`, {
      headers: { 'If-Match': '"1"' },
      body: { titleEn: 'Customer onboarding' },
    });
    await record('saveJourneyVersionContent', `${versionPath}/content`, { headers: { 'If-Match': '"1"' }, body: { content } });
    await record('updateJourneyVersion', versionPath, { body: { label: 'Launch' } });
    await record('getJourneyVersion', versionPath);
    const current = await call('GET', versionPath, { host: ws.host, key: ws.key });
    await record('publishJourneyVersion', `${versionPath}/publish`, { headers: { 'If-Match': current.headers.get('etag')! } });
    const picture = await record('getJourneyMapPicture', `${versionPath}/map.svg?locale=en`);
    recorded.set('getJourneyMapPicture', {
      request: { path: `${versionPath}/map.svg`, query: 'locale=en' },
      response: { status: 200, body: `${picture.text.slice(0, picture.text.indexOf('<title>'))}<title>Launch</title>…` },
    });
    const draft = await record('createJourneyVersion', `/journeys/${made.journeyId}/versions`, {
      body: { fromVersionId: made.versionId, label: 'Next' },
    });
    const draftPath = `/journeys/${made.journeyId}/versions/${draft.body.version.id}`;
    await record('diffJourneyVersions', `${draftPath}/diff?against=${made.versionId}`);
    await record('listJourneyVersions', `/journeys/${made.journeyId}/versions?limit=1`);
    await record('deleteJourneyVersion', draftPath);
    await record('archiveJourney', `/journeys/${made.journeyId}`);

    // SOPs
    const directory = await importTestDirectory(ws);
    await record('getSopDirectory', '/sops/directory');
    const sopBody = {
      titleEn: 'Refund a duplicate charge',
      type: 'complaint',
      departmentId: directory.teams.billing,
      steps: [{ titleEn: 'Confirm both charges in the billing console' }, { titleEn: 'Refund the later one' }],
      escalationLevel1: directory.people.amal,
    };
    const sop = await record('createSop', '/sops', { body: sopBody });
    const sopId = sop.body.sop.id;
    await record('replaceSop', `/sops/${sopId}`, { body: { ...sopBody, descriptionEn: 'When a customer was charged twice.' } });
    await record('submitSop', `/sops/${sopId}/submit`);
    await record('sendBackSop', `/sops/${sopId}/send-back`, { body: { feedback: 'Add how long the refund takes.' } });
    await call('POST', `/sops/${sopId}/submit`, { host: ws.host, key: ws.key });
    await record('approveSop', `/sops/${sopId}/approve`);
    await record('getSop', `/sops/${sopId}`);
    await record('listSops', '/sops');
    await record('deleteSop', `/sops/${sopId}`);

    // Webhooks
    const webhook = await record('createWebhook', '/webhooks', {
      body: { name: 'Product board sync', url: receiver.url, events: ['idea.submitted', 'idea.status_changed'] },
    });
    const hookId = webhook.body.webhook.id;
    await record('listWebhooks', '/webhooks');
    await record('getWebhook', `/webhooks/${hookId}`);
    await record('updateWebhook', `/webhooks/${hookId}`, { body: { name: 'Product board', events: ['idea.submitted'] } });
    await record('rotateWebhookSecret', `/webhooks/${hookId}/rotate`);
    await record('enableWebhook', `/webhooks/${hookId}/enable`);
    useSandboxEnvironment();
    const { recordNewDelivery } = await import('../../lib/webhooks/deliveries.ts');
    const event = {
      id: 'evt_0t9r1k20000000000000000000000001a9f3b2c',
      type: 'idea.submitted',
      timestamp: new Date().toISOString(),
      data: {},
    } as unknown as WebhookEvent;
    await recordNewDelivery(ws.slug, hookId, event, '{}');
    const deliveries = await record('listWebhookDeliveries', `/webhooks/${hookId}/deliveries?limit=10`);
    await record('redeliverWebhookDelivery', `/webhooks/${hookId}/deliveries/${deliveries.body.deliveries[0].id}/redeliver`);
    await record('disableWebhook', `/webhooks/${hookId}/disable`);
    await record('deleteWebhook', `/webhooks/${hookId}`);

    // Surveys
    const definition = routedDefinition();
    await record('validateSurveyDefinition', '/surveys/validate', { body: { definition } });
    const survey = await record('createSurvey', '/surveys', { body: { name: 'Onboarding', language: 'en' } });
    const surveyId = survey.body.survey.id as string;
    const firstVersion = survey.body.version.id as string;
    const design = await record('createSurveyDesign', '/surveys/designs', {
      body: { name: 'Brand', primaryColor: '#0B5FFF', backgroundColor: '#FFFFFF', logoUrl: 'https://cdn.example.com/logo.png' },
    });
    const designId = design.body.design.id as string;
    await record('updateSurveyDesign', `/surveys/designs/${designId}`, { body: { font: 'Inter' } });
    await record('listSurveyDesigns', '/surveys/designs');
    await record('listAudienceAttributes', '/surveys/audience-attributes');
    await record('updateSurvey', `/surveys/${surveyId}`, { headers: { 'If-Match': '"1"' }, body: { designId } });
    await record('replaceSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`, {
      headers: { 'If-Match': '"1"' },
      body: { definition },
    });
    await record('getSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`);
    await record('simulateSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}/simulate`, {
      body: { answers: { plan: 'pro', score: 9 } },
    });
    await record('publishSurvey', `/surveys/${surveyId}/publish`, { body: { versionId: firstVersion } });
    await summarisedResponses(surveyId, firstVersion);
    await record('getSurveySummary', `/surveys/${surveyId}/summary?from=2026-11-01&to=2026-11-30`);
    // Journey metrics: a stage's NPS, computed from this survey's responses.
    const measured = await call('POST', '/journeys', { host: ws.host, key: ws.key, body: { titleEn: 'Sign-up', titleAr: 'التسجيل' } });
    const measuredPath = `/journeys/${measured.body.journeyId}/versions/${measured.body.version.id}`;
    const npsContent = {
      schema: 1,
      stages: [{ id: 'sign-up', titleEn: 'Sign up', titleAr: 'التسجيل', microJourneyPairs: [] }],
      rows: [{ id: 'nps', type: 'metric', titleEn: 'NPS', titleAr: 'صافي نقاط الترويج' }],
      cells: { 'nps:sign-up': { source: { surveyId, questionId: 'score', measure: 'nps' }, target: 30 } },
    };
    const bound = await call('PUT', `${measuredPath}/content`, {
      host: ws.host,
      key: ws.key,
      body: { content: npsContent },
      headers: { 'If-Match': '"1"' },
    });
    expect(bound.status, bound.text).toBe(200);
    await record('getJourneyVersionMetrics', `${measuredPath}/metrics?from=2026-11-01&to=2026-11-14&interval=week`);
    // Survey responses
    const submitted = await record('submitSurveyResponse', `/surveys/${surveyId}/responses`, {
      headers: { 'Idempotency-Key': 'resp-7f3a' },
      body: {
        answers: { plan: 'pro' },
        finished: false,
        language: 'en',
        respondent: { externalId: 'crm-1042', email: 'rania@example.com' },
        meta: { source: 'mobile-app', channel: 'in-app' },
      },
    });
    const responseUrl = `/surveys/${surveyId}/responses/${submitted.body.response.id}`;
    await record('continueSurveyResponse', responseUrl, {
      headers: { 'If-Match': '"1"' },
      body: { answers: { channels: ['chat', 'api'] } },
    });
    await record('getSurveyResponse', responseUrl);
    await record('listSurveyResponses', `/surveys/${surveyId}/responses?limit=1&status=partial`);
    await record('deleteSurveyResponse', responseUrl);
    await record('eraseSurveyRespondent', '/surveys/responses/erase', { body: { externalId: 'crm-1042' } });
    await record('closeSurvey', `/surveys/${surveyId}/close`);
    const nextVersion = await record('createSurveyVersion', `/surveys/${surveyId}/versions`, { body: {} });
    await record('getSurvey', `/surveys/${surveyId}`);
    await record('listSurveys', '/surveys?limit=1');
    await record('deleteSurveyVersion', `/surveys/${surveyId}/versions/${nextVersion.body.version.id}`);
    await record('archiveSurvey', `/surveys/${surveyId}`);

    // Knowledge bank
    const category = await record('createKnowledgeBankCategory', '/knowledge-bank/categories', {
      body: { nameEn: 'Billing', nameAr: 'الفواتير', descriptionEn: 'Invoices, refunds and payment methods' },
    });
    const categoryId = category.body.category.id as string;
    const spare = await call('POST', '/knowledge-bank/categories', { host: ws.host, key: ws.key, body: { nameEn: 'Drafts' } });
    await record('getKnowledgeBankCategory', `/knowledge-bank/categories/${categoryId}`);
    await record('updateKnowledgeBankCategory', `/knowledge-bank/categories/${categoryId}`, {
      headers: { 'If-Match': '"1"' },
      body: { descriptionEn: 'Invoices, refunds, payment methods and taxes' },
    });
    await record('listKnowledgeBankCategories', '/knowledge-bank/categories');
    const article = await record('createKnowledgeBankArticle', '/knowledge-bank/articles', {
      body: { categoryId, titleEn: 'How to pay an invoice', tags: ['invoices'], blocks: [para('Open Billing, then Invoices.')] },
    });
    const articleId = article.body.article.id as string;
    const related = await call('POST', '/knowledge-bank/articles', {
      host: ws.host,
      key: ws.key,
      body: { categoryId, titleEn: 'Refunds', blocks: [linkTo(articleId)] },
    });
    await call('POST', `/knowledge-bank/articles/${related.body.article.id}/publish`, { host: ws.host, key: ws.key });
    await record('saveKnowledgeBankDraft', `/knowledge-bank/articles/${articleId}/draft`, {
      headers: { 'If-Match': '"1"' },
      body: {
        titleEn: 'How to pay an invoice',
        blocks: [para('Open Billing, then Invoices, and choose Pay.', 'افتح الفواتير ثم اختر ادفع.')],
      },
    });
    await record('updateKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}`, {
      headers: { 'If-Match': '"2"' },
      body: { tags: ['invoices', 'payments'] },
    });
    await record('publishKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}/publish`);
    await record('getKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}`);
    await record('listKnowledgeBankArticles', '/knowledge-bank/articles?limit=1');
    await record('listKnowledgeBankTranslations', '/knowledge-bank/translations?locale=ar&limit=1');
    // Search reads an index the stream keeps current: wait until the publish is searchable, then record.
    for (let attempt = 0; attempt < 100; attempt++) {
      const found = await call('GET', '/knowledge-bank/search?q=invoice', { host: ws.host, key: ws.key });
      if (found.body.results?.length > 0) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    await record('searchKnowledgeBank', '/knowledge-bank/search?q=invoice&locale=en');
    await record('listKnowledgeBankExternalLinks', '/knowledge-bank/links?limit=1');
    await record('checkKnowledgeBankLinks', '/knowledge-bank/links/check');
    await record('listKnowledgeBankLinks', `/knowledge-bank/articles/${related.body.article.id}/links`);
    await record('listKnowledgeBankBacklinks', `/knowledge-bank/articles/${articleId}/backlinks`);
    await record('listKnowledgeBankRevisions', `/knowledge-bank/articles/${articleId}/revisions?limit=1`);
    await record('getKnowledgeBankRevision', `/knowledge-bank/articles/${articleId}/revisions/1`);
    await record('restoreKnowledgeBankRevision', `/knowledge-bank/articles/${articleId}/revisions/1/restore`);
    await record('unpublishKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}/unpublish`);
    await record('deleteKnowledgeBankArticle', `/knowledge-bank/articles/${articleId}`);
    await record('deleteKnowledgeBankCategory', `/knowledge-bank/categories/${spare.body.category.id}`);

    const missing = routes.map((r) => r.operationId).filter((op) => !recorded.has(op));
    expect(missing, 'operations without an example: add a step for each to this walk').toEqual([]);

    const fresh = normalize(Object.fromEntries([...recorded].sort(([a], [b]) => a.localeCompare(b))));
    if (process.env.RECORD_EXAMPLES === '1') writeFileSync(EXAMPLES_FILE, `${JSON.stringify(fresh, null, 2)}\n`);
    const committed = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8'));
    expect(committed, 'lib/api-examples.json differs from a fresh recording: run `npm run docs:examples` and commit it').toEqual(fresh);
  }, 120_000);
});
