/**
 * The generated client (clients/typescript) drives the sandbox, one area at a time. These calls
 * are type-checked against the generated types, so a document that no longer matches what the
 * handlers accept or return breaks `npm test` here, at compile time or at run time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, createPortalClient, type PortalClient } from '../../clients/typescript/index.ts';
import { PERMISSIONS, MODULES as WORKSPACE_MODULES } from '../../lib/platform/permissions.ts';
import { sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { ideasWorkspace, MODULES, STATUSES } from '../support/ideas.ts';

let ws: TestWorkspace;
let api: PortalClient;

beforeAll(async () => {
  ws = await ideasWorkspace('client');
  api = createPortalClient({ baseUrl: sandbox.apiUrl, workspaceHost: ws.host, key: ws.key });
});

describe('clients/typescript against the sandbox', () => {
  it('Introduction: checks its key and reads the OpenAPI document', async () => {
    const { data, response } = await api.GET('/me');
    expect(data).toEqual({
      ok: true,
      data: { workspace: ws.slug, authenticated: true, permissions: [...PERMISSIONS].sort(), modules: [...WORKSPACE_MODULES].sort() },
    });
    expect(response.headers.get('api-version')).toBe('1.0.0');
    const { data: document } = await api.GET('/openapi.json');
    expect(document?.openapi).toBe('3.1.0');
  });

  it('Ideas: creates, reads, patches, deletes, and walks every idea by cursor', async () => {
    const created = await api.POST('/ideas', {
      body: { title: 'Typed client idea', status: STATUSES[0], module: MODULES[0] },
      params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.data.id;
    const read = await api.GET('/ideas/{id}', { params: { path: { id } } });
    expect(read.data?.data.title).toBe('Typed client idea');
    const patched = await api.PATCH('/ideas/{id}', {
      params: { path: { id }, header: { 'If-Match': read.response.headers.get('etag')! } },
      body: { status: STATUSES[1] },
    });
    expect(patched.data?.data).toMatchObject({ status: STATUSES[1], version: 2 });

    for (let i = 0; i < 4; i++) await api.POST('/ideas', { body: { title: `Bulk ${i}` } });
    const synced: string[] = [];
    for await (const idea of allPages(async (cursor) => {
      const { data, error } = await api.GET('/ideas', { params: { query: { limit: 2, cursor } } });
      if (error) throw new Error(error.message);
      return { items: data.data, nextCursor: data.pagination.nextCursor };
    })) {
      synced.push(idea.title);
    }
    expect(synced).toEqual(['Bulk 3', 'Bulk 2', 'Bulk 1', 'Bulk 0', 'Typed client idea']);

    const bad = await api.GET('/ideas', { params: { query: { limit: 1000 } } });
    expect(bad.error).toMatchObject({ ok: false, error: 'invalid_query' });
    const deleted = await api.DELETE('/ideas/{id}', { params: { path: { id } } });
    expect(deleted.data).toEqual({ ok: true });
  });

  it('Journeys: creates a journey, saves and publishes its version, and walks the list by cursor', async () => {
    const created = await api.POST('/journeys', { body: { titleEn: 'Onboarding' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(200);
    const { journeyId, version } = created.data!;
    const path = { journeyId, versionId: version.id };
    const read = await api.GET('/journeys/{journeyId}/versions/{versionId}', { params: { path } });
    const saved = await api.PUT('/journeys/{journeyId}/versions/{versionId}/content', {
      params: { path, header: { 'If-Match': read.response.headers.get('etag')! } },
      body: { content: { schema: 1, stages: [{ id: 'discover', titleEn: 'Discover', microJourneyPairs: [] }], rows: [], cells: {} } },
    });
    expect(saved.response.status, JSON.stringify(saved.error)).toBe(200);
    const published = await api.POST('/journeys/{journeyId}/versions/{versionId}/publish', {
      params: { path, header: { 'If-Match': saved.response.headers.get('etag')! } },
    });
    expect(published.response.status, JSON.stringify(published.error)).toBe(200);
    await api.POST('/journeys', { body: { titleEn: 'Support' } });
    const titles: (string | null)[] = [];
    for await (const journey of allPages(async (cursor) => {
      const { data, error } = await api.GET('/journeys', { params: { query: { limit: 1, cursor } } });
      if (error) throw new Error(error.message);
      return { items: data.journeys, nextCursor: data.pagination.nextCursor };
    })) {
      titles.push(journey.titleEn);
    }
    expect(titles).toEqual(['Support', 'Onboarding']);
  });

  it('SOPs: creates a draft, submits it and reads it back', async () => {
    const created = await api.POST('/sops', { body: { titleEn: 'Answer a delivery question', type: 'inquiry' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(200);
    const id = created.data!.sop.id;
    const submitted = await api.POST('/sops/{id}/submit', { params: { path: { id } } });
    expect(submitted.data?.sop.status).toBe('under_review');
    const { data } = await api.GET('/sops/{id}', { params: { path: { id } } });
    expect(data?.sop).toMatchObject({ id, status: 'under_review' });
    const list = await api.GET('/sops');
    expect(list.data?.sops.map((sop) => sop.id)).toContain(id);
  });

  it('Webhooks: creates a webhook and pages its (empty) deliveries', async () => {
    const created = await api.POST('/webhooks', {
      body: { name: 'Typed client hook', url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const webhook = created.data!.webhook;
    expect(webhook.secret).toMatch(/^whsec_/);
    const deliveries = await api.GET('/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query: { limit: 10 } } });
    expect(deliveries.data).toEqual({ ok: true, deliveries: [], pagination: { limit: 10, offset: 0, hasMore: false, nextCursor: null } });
    const list = await api.GET('/webhooks');
    expect(list.data?.webhooks.map((w) => w.id)).toContain(webhook.id);
  });
  it('Surveys: creates a survey, saves and simulates its draft, publishes it, and walks the list by cursor', async () => {
    const created = await api.POST('/surveys', { body: { name: 'Typed client survey', language: 'en' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(200);
    const { survey, version } = created.data!;
    const path = { id: survey.id, versionId: version.id };
    const saved = await api.PUT('/surveys/{id}/versions/{versionId}', {
      params: { path, header: { 'If-Match': `"${version.revision}"` } },
      body: {
        definition: {
          languages: ['en'],
          questions: [{ id: 'score', type: 'nps', headline: { en: 'How likely are you to recommend us?' }, required: true }],
          endings: [{ id: 'thanks', headline: { en: 'Thank you!' } }],
        },
      },
    });
    expect(saved.response.status, JSON.stringify(saved.error)).toBe(200);
    const run = await api.POST('/surveys/{id}/versions/{versionId}/simulate', { params: { path }, body: { answers: { score: 9 } } });
    expect(run.data?.run).toMatchObject({ path: ['score'], ending: 'thanks' });
    const published = await api.POST('/surveys/{id}/publish', { params: { path: { id: survey.id } }, body: { versionId: version.id } });
    expect(published.response.status, JSON.stringify(published.error)).toBe(200);

    await api.POST('/surveys', { body: { name: 'Second survey' } });
    const names: string[] = [];
    for await (const listed of allPages(async (cursor) => {
      const { data, error } = await api.GET('/surveys', { params: { query: { limit: 1, cursor } } });
      if (error) throw new Error(error.message);
      return { items: data.surveys, nextCursor: data.pagination.nextCursor };
    })) {
      names.push(listed.name);
    }
    expect(names).toEqual(['Second survey', 'Typed client survey']);
    const { data } = await api.GET('/surveys/{id}', { params: { path: { id: survey.id } } });
    expect(data?.survey).toMatchObject({ status: 'published', publishedVersionId: version.id });
  });

  it('Knowledge bank: creates a category and an article, publishes it, and walks articles and revisions by cursor', async () => {
    const category = await api.POST('/knowledge-bank/categories', { body: { nameEn: 'Typed client' } });
    expect(category.response.status, JSON.stringify(category.error)).toBe(201);
    const categoryId = category.data!.category.id;
    const titles = ['Pay an invoice', 'Refund a charge'];
    let articleId = '';
    for (const titleEn of titles) {
      const created = await api.POST('/knowledge-bank/articles', {
        body: { categoryId, titleEn, blocks: [{ type: 'paragraph', text: { en: [{ text: `${titleEn}, step by step.` }] } }] },
      });
      expect(created.response.status, JSON.stringify(created.error)).toBe(201);
      articleId = created.data!.article.id;
    }
    const published = await api.POST('/knowledge-bank/articles/{articleId}/publish', { params: { path: { articleId } } });
    expect(published.data?.article).toMatchObject({ status: 'published', blocks: [{ type: 'paragraph', translation: 'missing' }] });

    const synced: string[] = [];
    for await (const article of allPages(async (cursor) => {
      const { data, error } = await api.GET('/knowledge-bank/articles', { params: { query: { categoryId, limit: 1, cursor } } });
      if (error) throw new Error(error.message);
      return { items: data.articles, nextCursor: data.pagination.nextCursor };
    })) {
      synced.push(article.titleEn ?? '');
    }
    expect(synced).toEqual([...titles].reverse());
    const revisions = await api.GET('/knowledge-bank/articles/{articleId}/revisions', { params: { path: { articleId } } });
    expect(revisions.data?.revisions.map((r) => r.revision)).toEqual([1]);
    expect(revisions.data?.pagination).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
  });
});
