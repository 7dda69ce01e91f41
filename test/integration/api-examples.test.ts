/**
 * The request and response examples of the OpenAPI document and the reference page
 * (lib/api-examples.json) are recorded here, from real requests to the sandbox, one scripted walk
 * through every operation of the manifest. Ids, times, secrets, cursors and the workspace are
 * replaced by stable stand-ins, so a recording is the same on every run: this test fails when the
 * committed examples differ from a fresh recording (the API changed), and `npm run docs:examples`
 * records them again.
 *
 * The same walk is the contract run: before each operation's success call it sends the refusals
 * its manifest entry documents (test/support/operation-probes.ts), every answer must be documented
 * (status and body, against the OpenAPI document), no answer may be a 5xx (an action a route does
 * not declare is denied by the sandbox as by IAM, a 502), and every documented error status of
 * every operation must have been driven: a route added to the manifest fails here until the walk
 * drives it, with a message saying what to add.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { routes } from '../../lib/manifest.ts';
import type { ApiExample } from '../../lib/platform/openapi.ts';
import type { RouteDefinition } from '../../lib/platform/route.ts';
import type { WebhookEvent } from '../../lib/webhooks/events.ts';
import { documentedStatuses, undocumentedIn } from '../support/documented-responses.ts';
import {
  type ApiResponse,
  adminStore,
  call,
  newKey,
  newWorkspace,
  type TestWorkspace,
  useSandboxEnvironment,
} from '../support/fixtures.ts';
import { cleanContent } from '../support/journeys.ts';
import { linkTo, para } from '../support/knowledge-bank.ts';
import { probesOf } from '../support/operation-probes.ts';
import { importTestDirectory } from '../support/sop-fixtures.ts';
import { routedDefinition } from '../support/surveys.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const EXAMPLES_FILE = resolve(import.meta.dirname, '../../lib/api-examples.json');
const RECEIVER_STAND_IN = 'https://hooks.example.com/portal';

let ws: TestWorkspace;
let keyWithoutPermissions: string;
let receiver: Receiver;
const recorded = new Map<string, ApiExample>();
/** Recorded refusals by operation, the first of each error code: the examples of error statuses. */
const refusals = new Map<string, NonNullable<ApiExample['errors']>[number][]>();
/** The statuses each operation answered in this walk, to find documented errors it never drove. */
const driven = new Map<string, Set<number>>();

beforeAll(async () => {
  ws = await newWorkspace('acme');
  keyWithoutPermissions = (await newKey(ws.slug, [])).key;
  await setIdeaLabels(adminStore(), ws.slug, { statuses: ['new', 'planned', 'done'], modules: ['billing', 'mobile-app'] });
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

type RequestOptions = { body?: Record<string, unknown>; headers?: Record<string, string> };

function routeOf(operationId: string): RouteDefinition {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`${operationId} is no operation of the manifest`);
  return route;
}

/** Every answer of the walk: never a 5xx, and what the document says this operation answers with this status. */
function expectDocumented(route: RouteDefinition, what: string, res: ApiResponse): void {
  expect(
    res.status,
    `${route.operationId} ${what}: ${res.status} ${res.text.slice(0, 300)}. A 5xx is a defect; a 502 is often an action missing ` +
      `from the route's \`table\` (the sandbox denies it as IAM would: see its log)`,
  ).toBeLessThan(500);
  if (route.response.contentType === undefined) expect(undocumentedIn(route, res.status, res.body), what).toBeNull();
  driven.set(route.operationId, (driven.get(route.operationId) ?? new Set()).add(res.status));
}

/** The refusals the route documents (operation-probes.ts), sent once per operation before its first success call. */
async function probe(route: RouteDefinition, path: string, options: RequestOptions): Promise<void> {
  if (recorded.has(route.operationId)) return;
  for (const { why, status, code, send } of probesOf(route, { path, ...options }, { host: ws.host, key: ws.key, keyWithoutPermissions })) {
    const res = await send();
    expectDocumented(route, why, res);
    expect([res.status, res.body?.error], `${route.operationId} ${why}: ${res.text.slice(0, 300)}`).toEqual([status, code]);
  }
}

/**
 * Sends a request the operation must refuse with `status` and `code`. The first of each code is
 * its example in the document, unless `example` is false (a megabyte of body shows nothing).
 */
async function refuse(
  operationId: string,
  path: string,
  options: RequestOptions,
  [status, code]: [number, string],
  example = true,
): Promise<ApiResponse> {
  const route = routeOf(operationId);
  const res = await call(route.method, path, { host: ws.host, key: ws.key, ...options });
  expectDocumented(route, `refused (${code})`, res);
  expect([res.status, res.body?.error], `${operationId}: ${res.text.slice(0, 300)}`).toEqual([status, code]);
  const known = refusals.get(operationId) ?? [];
  if (example && !known.some((refusal) => (refusal.response.body as { error: string }).error === code)) {
    const [pathOnly, query] = path.split('?');
    known.push({
      request: {
        path: pathOnly!,
        ...(query ? { query } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.body ? { body: options.body } : {}),
      },
      response: { status: res.status, body: res.body },
    });
    refusals.set(operationId, known);
  }
  return res;
}

/**
 * A creating POST's first call carries an Idempotency-Key (one per operation: the workspace is new
 * on every run): afterwards the same key with the same body is replayed, and with one text member
 * changed is refused with 409 `idempotency_key_reused`, neither creating anything.
 */
function withIdempotencyKey(route: RouteDefinition, options: RequestOptions): RequestOptions {
  if (!route.idempotent || recorded.has(route.operationId) || options.headers?.['Idempotency-Key']) return options;
  return { ...options, headers: { ...options.headers, 'Idempotency-Key': `walk-${route.operationId}` } };
}

async function replayIdempotently(route: RouteDefinition, path: string, options: RequestOptions, first: ApiResponse): Promise<void> {
  const key = options.headers?.['Idempotency-Key'];
  if (!route.idempotent || key === undefined) return;
  const replay = await call(route.method, path, { host: ws.host, key: ws.key, ...options });
  expectDocumented(route, 'replayed with its Idempotency-Key', replay);
  expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body], route.operationId).toEqual([
    first.status,
    'true',
    first.body,
  ]);
  const text = Object.entries(options.body ?? {}).find(([, value]) => typeof value === 'string' && !UUID.test(value));
  if (!text) return;
  const other = { ...options, body: { ...options.body, [text[0]]: `${text[1]} (another)` } };
  await refuse(route.operationId, path, other, [409, 'idempotency_key_reused'], false);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Calls the API and records the first call of each operation as its example, after its documented refusals. */
async function record(operationId: string, path: string, given: RequestOptions = {}): Promise<any> {
  const route = routeOf(operationId);
  const options = withIdempotencyKey(route, given);
  await probe(route, path, options);
  const res = await call(route.method, path, { host: ws.host, key: ws.key, ...options });
  expectDocumented(route, 'success', res);
  expect(res.status, `${operationId}: ${res.text}`).toBe(route.response.status);
  if (!recorded.has(operationId)) await replayIdempotently(route, path, options, res);
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

/**
 * The documented error statuses of a route that no call of the walk answered. Not 429 and 502
 * (no request should provoke them), nor 404 where the path names no record (only a workspace
 * deleted under a valid key gets it: test/integration/platform-auth.test.ts).
 */
function undrivenErrors(route: RouteDefinition): string[] {
  const answered = driven.get(route.operationId) ?? new Set();
  return (
    documentedStatuses(route)
      .filter((status) => status >= 400 && status !== 429 && status !== 502)
      .filter((status) => status !== 404 || route.request?.params !== undefined)
      // Without a permission or module to lack, only a suspended workspace is a 403 (platform-auth.test.ts).
      .filter((status) => status !== 403 || route.permissions.length > 0 || route.module !== null)
      .map((status) => `${route.operationId} ${status}`)
      .filter((error) => !answered.has(Number(error.split(' ')[1])) && !(error in ONLY_IN_A_RACE))
  );
}

/** Documented errors no single request provokes: a concurrent change must land mid-request. */
const ONLY_IN_A_RACE: Record<string, string> = {
  'enableWebhook 409': '`webhook_changed`: the URL or secret changes while the receiver is being verified',
  'redeliverWebhookDelivery 409': '`delivery_in_progress`: an attempt of the delivery is being made at that moment',
};

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
    const hugeContent = { schema: 1, stages: [], rows: [], cells: {} as Record<string, { textEn: string }> };
    for (let i = 0; i < 270; i++) hugeContent.cells[`r:s${i}`] = { textEn: 'x'.repeat(4000) };
    await refuse('validateJourneyContent', '/journeys/validate', { body: { content: hugeContent } }, [413, 'content_too_large'], false);
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
    // An empty patch changes nothing (and reads the journey to say so).
    await record('updateJourney', `/journeys/${made.journeyId}`, { body: {} });
    await refuse(
      'saveJourneyVersionContent',
      `${versionPath}/content`,
      { headers: { 'If-Match': '"1"' }, body: { content: hugeContent } },
      [413, 'content_too_large'],
      false,
    );
    await record('saveJourneyVersionContent', `${versionPath}/content`, { headers: { 'If-Match': '"1"' }, body: { content } });
    await record('updateJourneyVersion', versionPath, { body: { label: 'Launch' } });
    await record('getJourneyVersion', versionPath);
    const current = await call('GET', versionPath, { host: ws.host, key: ws.key });
    await record('publishJourneyVersion', `${versionPath}/publish`, { headers: { 'If-Match': current.headers.get('etag')! } });
    const draft = await record('createJourneyVersion', `/journeys/${made.journeyId}/versions`, {
      body: { fromVersionId: made.versionId, label: 'Next' },
    });
    const draftPath = `/journeys/${made.journeyId}/versions/${draft.body.version.id}`;
    await record('diffJourneyVersions', `${draftPath}/diff?against=${made.versionId}`);
    await record('listJourneyVersions', `/journeys/${made.journeyId}/versions?limit=1`);
    // Two stages with one id: publish refuses the draft and lists its diagnostics.
    const duplicateStages = { ...content, stages: [...content.stages, { ...content.stages[0]!, microJourneyPairs: [] }] };
    const saved = await call('PUT', `${draftPath}/content`, {
      host: ws.host,
      key: ws.key,
      headers: { 'If-Match': '"1"' },
      body: { content: duplicateStages },
    });
    expect(saved.status, saved.text).toBe(200);
    await refuse('publishJourneyVersion', `${draftPath}/publish`, { headers: { 'If-Match': saved.headers.get('etag')! } }, [
      400,
      'invalid_content',
    ]);
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
    const hugeDefinition = {
      ...definition,
      questions: Array.from({ length: 200 }, (_, i) => ({
        id: `q${i}`,
        type: 'openText',
        headline: { en: 'x'.repeat(2000), ar: 'ي'.repeat(2000) },
        required: false,
      })),
    };
    await refuse(
      'validateSurveyDefinition',
      '/surveys/validate',
      { body: { definition: hugeDefinition } },
      [413, 'definition_too_large'],
      false,
    );
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
    await refuse(
      'replaceSurveyVersion',
      `/surveys/${surveyId}/versions/${firstVersion}`,
      { headers: { 'If-Match': '"1"' }, body: { definition: hugeDefinition } },
      [413, 'definition_too_large'],
      false,
    );
    await record('replaceSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`, {
      headers: { 'If-Match': '"1"' },
      body: { definition },
    });
    await record('getSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`);
    await record('simulateSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}/simulate`, {
      body: { answers: { plan: 'pro', score: 9 } },
    });
    await record('publishSurvey', `/surveys/${surveyId}/publish`, { body: { versionId: firstVersion } });
    await record('closeSurvey', `/surveys/${surveyId}/close`);
    const nextVersion = await record('createSurveyVersion', `/surveys/${surveyId}/versions`, { body: {} });
    // Its body has no text to vary (withIdempotencyKey): the same key with another body is refused here.
    await refuse(
      'createSurveyVersion',
      `/surveys/${surveyId}/versions`,
      { headers: { 'Idempotency-Key': 'walk-createSurveyVersion' }, body: { fromVersionId: firstVersion } },
      [409, 'idempotency_key_reused'],
      false,
    );
    await record('getSurvey', `/surveys/${surveyId}`);
    await record('listSurveys', '/surveys?limit=1');
    // The next draft, published without acknowledging what it breaks, then with an error in it: both refused.
    const nextPath = `/surveys/${surveyId}/versions/${nextVersion.body.version.id}`;
    const publishNext = { body: { versionId: nextVersion.body.version.id } };
    const breaking = routedDefinition();
    breaking.questions[0]!.options!.pop();
    breaking.questions[0]!.routes = [];
    const savedBreaking = await call('PUT', nextPath, {
      host: ws.host,
      key: ws.key,
      headers: { 'If-Match': '"1"' },
      body: { definition: breaking },
    });
    expect(savedBreaking.status, savedBreaking.text).toBe(200);
    await refuse('publishSurvey', `/surveys/${surveyId}/publish`, publishNext, [409, 'breaking_changes']);
    const invalid = routedDefinition();
    invalid.questions[3]!.visibleIf = { question: 'why-low', operator: 'isAnswered' } as never;
    const savedInvalid = await call('PUT', nextPath, {
      host: ws.host,
      key: ws.key,
      headers: { 'If-Match': '"2"' },
      body: { definition: invalid },
    });
    expect(savedInvalid.status, savedInvalid.text).toBe(200);
    await refuse('publishSurvey', `/surveys/${surveyId}/publish`, publishNext, [400, 'invalid_definition']);
    await record('deleteSurveyVersion', nextPath);
    await refuse('deleteSurveyVersion', `/surveys/${surveyId}/versions/${firstVersion}`, {}, [409, 'version_locked']);
    await record('archiveSurvey', `/surveys/${surveyId}`);
    await refuse('closeSurvey', `/surveys/${surveyId}/close`, {}, [409, 'survey_archived']);

    // Knowledge bank
    const category = await record('createKnowledgeBankCategory', '/knowledge-bank/categories', {
      body: { nameEn: 'Billing', nameAr: 'الفواتير', descriptionEn: 'Invoices, refunds and payment methods' },
    });
    const categoryId = category.body.category.id as string;
    // A sub-category: deleting it also lowers its parent's child count (issue 19: that write was undeclared).
    const spare = await call('POST', '/knowledge-bank/categories', {
      host: ws.host,
      key: ws.key,
      body: { nameEn: 'Drafts', parentId: categoryId },
    });
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
    // 36 blocks of 30,000 bytes: past the 1 MB of JSON a draft may hold.
    const hugeBlocks = Array.from({ length: 36 }, () => para(undefined, 'ع'.repeat(15_000)));
    await refuse(
      'createKnowledgeBankArticle',
      '/knowledge-bank/articles',
      { body: { categoryId, titleEn: 'Too big', blocks: hugeBlocks } },
      [413, 'content_too_large'],
      false,
    );
    const related = await call('POST', '/knowledge-bank/articles', {
      host: ws.host,
      key: ws.key,
      body: { categoryId, titleEn: 'Refunds', blocks: [linkTo(articleId)] },
    });
    await call('POST', `/knowledge-bank/articles/${related.body.article.id}/publish`, { host: ws.host, key: ws.key });
    await refuse(
      'saveKnowledgeBankDraft',
      `/knowledge-bank/articles/${articleId}/draft`,
      { headers: { 'If-Match': '"1"' }, body: { titleEn: 'How to pay an invoice', blocks: hugeBlocks } },
      [413, 'content_too_large'],
      false,
    );
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
    expect(
      routes.flatMap(undrivenErrors),
      'documented error statuses the walk never drove: make operation-probes.ts derive them, or add a `refuse(...)` step for each',
    ).toEqual([]);

    for (const [operationId, errors] of refusals) recorded.get(operationId)!.errors = errors;
    const fresh = normalize(Object.fromEntries([...recorded].sort(([a], [b]) => a.localeCompare(b))));
    if (process.env.RECORD_EXAMPLES === '1') writeFileSync(EXAMPLES_FILE, `${JSON.stringify(fresh, null, 2)}\n`);
    const committed = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8'));
    expect(committed, 'lib/api-examples.json differs from a fresh recording: run `npm run docs:examples` and commit it').toEqual(fresh);
  }, 120_000);
});
