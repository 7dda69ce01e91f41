/**
 * HTTP semantics every route shares, walked over the manifest where it can be: 405 with `Allow`,
 * the API index, `Location` on every 201, Idempotency-Key on every create, and lists that answer
 * their whole documented offset range.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { onWorkspaceHost } from '../../lib/platform/route.ts';
import { adminStore, call, clientFor, expectErrorEnvelope, newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { makeJourney } from '../support/journeys.ts';
import { publishedSurvey } from '../support/surveys.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await newWorkspace('contract');
  api = clientFor(ws);
});

describe('405: a known path with another method', () => {
  it('answers method_not_allowed with the methods of the path in Allow, from the manifest', async () => {
    const res = await api.delete('/me');
    expectErrorEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
    const ideas = await api.put('/ideas');
    expectErrorEnvelope(ideas, 405, 'method_not_allowed');
    expect(ideas.headers.get('allow')).toBe('GET, POST');
    const idea = await api.post('/ideas/01900000-0000-7000-8000-0000000000cc');
    expect(idea.headers.get('allow')).toBe('DELETE, GET, PATCH, PUT');
  });

  it('an unknown path is still a 404', async () => {
    expectErrorEnvelope(await api.get('/no/such/route'), 404, 'route_not_found');
  });

  it('is what the $default function answers in AWS too (the same handler, without the sandbox router)', async () => {
    const { handler } = await import('../../functions/system/not-found.ts');
    const event = (method: string, rawPath: string) =>
      ({ rawPath, headers: {}, requestContext: { http: { method }, requestId: 'r-1' } }) as never;
    const res = await handler(event('PATCH', '/api/v1/webhooks'), {} as never);
    expect(res.statusCode).toBe(405);
    expect(res.headers?.Allow).toBe('GET, POST');
    expect(JSON.parse(res.body!).error).toBe('method_not_allowed');
    expect((await handler(event('GET', '/api/v1/no/such/route'), {} as never)).statusCode).toBe(404);
    const root = await handler(event('GET', '/'), {} as never);
    expect(root.statusCode).toBe(302);
    expect(root.headers?.Location).toBe('/api/v1');
  });

  it('redirects GET / to the API index, and only GET or HEAD', async () => {
    const origin = new URL(sandbox.apiUrl).origin;
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${origin}/`, { method, redirect: 'manual' });
      expect(res.status, method).toBe(302);
      expect(res.headers.get('location')).toBe('/api/v1');
    }
    const followed = await fetch(`${origin}/`);
    expect(followed.url).toBe(`${origin}/api/v1`);
    expect(((await followed.json()) as { data: { docs: string } }).data.docs).toBe('/api/v1/docs');
    const post = await fetch(`${origin}/`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(404);
  });
});

describe("413: a body past Lambda's 6 MB payload limit", () => {
  it('is answered as API Gateway answers it: its own body, not the envelope, and nothing is created', async () => {
    const before = await api.get('/ideas');
    const oversized = JSON.stringify({ titleEn: 'x', descriptionEn: 'y'.repeat(6 * 1024 * 1024) });
    const res = await api.post('/ideas', { rawBody: oversized });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request Too Long' });
    expect(res.headers.get('x-request-id')).toBeNull();
    expect(res.headers.get('apigw-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const after = await api.get('/ideas');
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
  });

  it('counts the whole event, as Lambda does: a body just under 6 MB whose event passes it is refused too', async () => {
    const before = await api.get('/ideas');
    const body = JSON.stringify({ titleEn: 'x', descriptionEn: 'y'.repeat(6 * 1024 * 1024 - 200) });
    expect(Buffer.byteLength(body)).toBeLessThan(6 * 1024 * 1024);
    const res = await api.post('/ideas', { rawBody: body });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request Too Long' });
    expect((await api.get('/ideas')).body.pagination.total).toBe(before.body.pagination.total);
  });

  it("every answer names API Gateway's request id in apigw-requestid", async () => {
    const res = await fetch(`${sandbox.apiUrl}/openapi.json`);
    expect(res.headers.get('apigw-requestid')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /api/v1: the index', () => {
  it('is public and points at the OpenAPI document and the reference page, served where it says', async () => {
    const res = await call('GET', '');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      data: { name: expect.any(String), version: expect.any(String), openapi: '/api/v1/openapi.json', docs: '/api/v1/docs' },
    });
    const page = await fetch(`${new URL(sandbox.apiUrl).origin}${res.body.data.docs}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const doc = await fetch(`${new URL(sandbox.apiUrl).origin}${res.body.data.openapi}`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await call('GET', '/')).status).toBe(200);
  });

  it('is in the manifest, public like the document', () => {
    const index = routes.find((r) => r.method === 'GET' && r.path === '');
    expect(index?.auth).toBe('none');
  });
});

describe('lists answer their whole documented offset range', () => {
  const MAX_OFFSET = 2_147_483_647;
  /** A concrete path for each list that takes `offset`; a new list fails the first test until it is added here. */
  async function listPaths(): Promise<Record<string, string>> {
    const webhook = await api.post('/webhooks', { body: { name: 'Offsets', url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] } });
    expect(webhook.status, webhook.text).toBe(201);
    const journey = await makeJourney(api);
    const category = await api.post('/knowledge-bank/categories', { body: { nameEn: 'Offsets' } });
    expect(category.status, category.text).toBe(201);
    const article = await api.post('/knowledge-bank/articles', { body: { categoryId: category.body.category.id, titleEn: 'Offsets' } });
    expect(article.status, article.text).toBe(201);
    const survey = await api.post('/surveys', { body: { name: 'Offsets' } });
    expect(survey.status, survey.text).toBe(200);
    const idea = await api.post('/ideas', { body: { title: 'Offsets' } });
    expect(idea.status, idea.text).toBe(201);
    return {
      listIdeaVotes: `/ideas/${idea.body.data.id}/votes`,
      listIdeaComments: `/ideas/${idea.body.data.id}/comments`,
      listSurveyResponses: `/surveys/${survey.body.survey.id}/responses`,
      listIdeas: '/ideas',
      listWebhookDeliveries: `/webhooks/${webhook.body.webhook.id}/deliveries`,
      listJourneys: '/journeys',
      listJourneyVersions: `/journeys/${journey.journeyId}/versions`,
      listSurveys: '/surveys',
      listKnowledgeBankArticles: '/knowledge-bank/articles',
      listKnowledgeBankRevisions: `/knowledge-bank/articles/${article.body.article.id}/revisions`,
      listKnowledgeBankTranslations: '/knowledge-bank/translations',
      listKnowledgeBankExternalLinks: '/knowledge-bank/links',
    };
  }

  it('every list with offset answers offset=2147483647 (the documented maximum) with an empty page', async () => {
    const paths = await listPaths();
    const lists = routes.filter((r) => {
      const query = r.request?.query as { def?: { shape?: Record<string, unknown> } } | undefined;
      return query?.def?.shape && 'offset' in query.def.shape;
    });
    expect(lists.map((r) => r.operationId).sort()).toEqual(Object.keys(paths).sort());
    for (const route of lists) {
      for (const limit of [1, 100]) {
        const res = await api.get(`${paths[route.operationId]}?offset=${MAX_OFFSET}&limit=${limit}`);
        expect(res.status, `${route.operationId}: ${res.text}`).toBe(200);
        expect(res.body.pagination).toMatchObject({ offset: MAX_OFFSET, limit, hasMore: false });
      }
      expectErrorEnvelope(await api.get(`${paths[route.operationId]}?offset=${MAX_OFFSET + 1}`), 400, 'invalid_query');
    }
  });
});

describe('201: every create says where its record is', () => {
  /** A valid body for each route answering 201; a new create fails the first test until it is added here. */
  let categoryId = '';
  /** Path parameters of the creates below a parent: a published survey collects responses. */
  const parents: Record<string, string> = {};
  const createBodies: Record<string, () => unknown> = {
    createIdea: () => ({ title: 'Location please' }),
    createWebhook: () => ({ name: 'Location', url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] }),
    createKnowledgeBankCategory: () => ({ nameEn: 'Location' }),
    // The manifest lists the category create first; the article goes into that category.
    createKnowledgeBankArticle: () => ({ categoryId, titleEn: 'Location' }),
    submitSurveyResponse: () => ({ answers: { plan: 'pro' }, finished: false }),
    voteOnIdea: () => ({ voter: { externalId: 'location-voter' } }),
    createIdeaComment: () => ({ body: 'Location', author: { externalId: 'location-author' } }),
  };
  const createdId = (body: Record<string, { id?: string } | undefined>) =>
    body.data?.id ?? body.webhook?.id ?? body.category?.id ?? body.article?.id ?? body.response?.id ?? body.vote?.id ?? body.comment?.id;

  it('sends Location, and the record is read there', async () => {
    // OAuth's client registration answers the client itself (RFC 7591): no record to read at a Location.
    const creates = routes.filter((r) => r.response.status === 201 && !onWorkspaceHost(r));
    expect(creates.map((r) => r.operationId).sort()).toEqual(Object.keys(createBodies).sort());
    parents.id = (await publishedSurvey(api)).surveyId;
    const idea = await api.post('/ideas', { body: { title: 'Voted and commented on' } });
    expect(idea.status, idea.text).toBe(201);
    for (const route of creates) {
      // `{id}` is the survey's below /surveys, the idea's below /ideas.
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        route.path.startsWith('/ideas/') ? idea.body.data.id : (parents[name] ?? ''),
      );
      const res = await call(route.method, path, { host: ws.host, key: ws.key, body: createBodies[route.operationId]!() });
      expect(res.status, `${route.operationId}: ${res.text}`).toBe(201);
      if (route.operationId === 'createKnowledgeBankCategory') categoryId = res.body.category.id;
      const location = res.headers.get('location');
      expect(location, route.operationId).toMatch(/^\/api\/v1\//);
      const read = await fetch(`${new URL(sandbox.apiUrl).origin}${location}`, {
        headers: { 'X-Service-Workspace-Host': ws.host, Authorization: `Bearer ${ws.key}` },
      });
      expect(read.status, `${route.operationId}: GET ${location}`).toBe(200);
      expect(JSON.stringify(await read.json())).toContain(JSON.stringify(createdId(res.body)));
    }
  });
});

describe('Idempotency-Key on POST /webhooks', () => {
  const body = { name: 'Exactly once', url: 'http://127.0.0.1:9/once', events: ['idea.submitted'] };

  it('makes one webhook of two identical requests with one key, and answers the second with it and its secret', async () => {
    const own = clientFor(await newWorkspace('hook-idem'));
    const key = randomUUID();
    const first = await own.post('/webhooks', { body, headers: { 'Idempotency-Key': key } });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await own.post('/webhooks', { body, headers: { 'Idempotency-Key': key } });
    expect(second.status, second.text).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.body.webhook).toEqual(first.body.webhook);
    expect((await own.get('/webhooks')).body.webhooks).toHaveLength(1);

    // The same key with another body is refused; a new key creates another.
    expectErrorEnvelope(
      await own.post('/webhooks', { body: { ...body, name: 'Other' }, headers: { 'Idempotency-Key': key } }),
      409,
      'idempotency_key_reused',
    );
    expect((await own.post('/webhooks', { body, headers: { 'Idempotency-Key': randomUUID() } })).status).toBe(201);
    expect((await own.get('/webhooks')).body.webhooks).toHaveLength(2);
  });

  it('replays the current secret after a rotate, and 404 once the webhook is deleted', async () => {
    const own = clientFor(await newWorkspace('hook-idem2'));
    const key = randomUUID();
    const first = await own.post('/webhooks', { body, headers: { 'Idempotency-Key': key } });
    const id = first.body.webhook.id;
    const rotated = await own.post(`/webhooks/${id}/rotate`);
    const replay = await own.post('/webhooks', { body, headers: { 'Idempotency-Key': key } });
    expect(replay.body.webhook.secret).toBe(rotated.body.webhook.secret);
    expect(replay.body.webhook.secret).not.toBe(first.body.webhook.secret);
    expect((await own.delete(`/webhooks/${id}`)).status).toBe(200);
    expectErrorEnvelope(await own.post('/webhooks', { body, headers: { 'Idempotency-Key': key } }), 404, 'not_found');
  });

  it('never copies the secret into the remembered response', async () => {
    const ws2 = await newWorkspace('hook-idem3');
    const own = clientFor(ws2);
    const created = await own.post('/webhooks', { body, headers: { 'Idempotency-Key': randomUUID() } });
    const { Items = [] } = await adminStore().db.send(
      new QueryCommand({
        TableName: sandbox.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${ws2.slug}` },
      }),
    );
    const remembered = Items.filter((i) => i.entity === 'IdempotencyRecord');
    expect(remembered).toHaveLength(1);
    expect(JSON.stringify(remembered)).not.toContain(created.body.webhook.secret);
  });
});
