/** Knowledge-bank access over HTTP: the permission matrix, the module switch, tenant isolation, concurrency and cost. */
import { beforeAll, describe, expect, it } from 'vitest';
import { changeModules } from '../../lib/admin/workspaces.ts';
import { AUTH_CALLS, adminStore, clientFor, dynamoDbCalls, expectErrorEnvelope, newKey } from '../support/fixtures.ts';
import {
  createArticle,
  createCategory,
  insideOneRateLimitWindow,
  type KbWorkspace,
  kbWorkspace,
  linkTo,
  para,
  publish,
  saveDraft,
} from '../support/knowledge-bank.ts';

let ws: KbWorkspace;
let other: KbWorkspace;
let categoryId: string;
let articleId: string;

beforeAll(async () => {
  [ws, other] = await Promise.all([kbWorkspace('kb-acc'), kbWorkspace('kb-acc-other')]);
  categoryId = (await createCategory(ws.writer, { nameEn: 'Access' })).id;
  articleId = (await createArticle(ws.writer, { categoryId, titleEn: 'Access article', blocks: [para('x')] })).id;
  await publish(ws.writer, articleId);
});

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Every operation, with a request that is valid when the key holds the permission. */
function operations(ids: { categoryId: string; articleId: string }) {
  return [
    { permission: 'knowledge-bank:read', method: 'GET', path: '/knowledge-bank/categories' },
    { permission: 'knowledge-bank:write', method: 'POST', path: '/knowledge-bank/categories', body: { nameEn: 'Matrix' } },
    { permission: 'knowledge-bank:read', method: 'GET', path: `/knowledge-bank/categories/${ids.categoryId}` },
    {
      permission: 'knowledge-bank:write',
      method: 'PATCH',
      path: `/knowledge-bank/categories/${ids.categoryId}`,
      body: { descriptionEn: 'd' },
    },
    { permission: 'knowledge-bank:delete', method: 'DELETE', path: `/knowledge-bank/categories/${UNKNOWN}` },
    { permission: 'knowledge-bank:read', method: 'GET', path: '/knowledge-bank/articles' },
    {
      permission: 'knowledge-bank:write',
      method: 'POST',
      path: '/knowledge-bank/articles',
      body: { categoryId: ids.categoryId, titleEn: 'Matrix' },
    },
    { permission: 'knowledge-bank:read', method: 'GET', path: `/knowledge-bank/articles/${ids.articleId}` },
    { permission: 'knowledge-bank:write', method: 'PATCH', path: `/knowledge-bank/articles/${ids.articleId}`, body: { tags: ['m'] } },
    {
      permission: 'knowledge-bank:write',
      method: 'PUT',
      path: `/knowledge-bank/articles/${ids.articleId}/draft`,
      body: { titleEn: 'Access article', blocks: [para('x')] },
      headers: { 'If-Match': '*' },
    },
    { permission: 'knowledge-bank:write', method: 'POST', path: `/knowledge-bank/articles/${ids.articleId}/publish` },
    { permission: 'knowledge-bank:write', method: 'POST', path: `/knowledge-bank/articles/${UNKNOWN}/unpublish` },
    { permission: 'knowledge-bank:delete', method: 'DELETE', path: `/knowledge-bank/articles/${UNKNOWN}` },
    { permission: 'knowledge-bank:read', method: 'GET', path: `/knowledge-bank/articles/${ids.articleId}/revisions` },
    { permission: 'knowledge-bank:read', method: 'GET', path: `/knowledge-bank/articles/${ids.articleId}/revisions/1` },
    { permission: 'knowledge-bank:write', method: 'POST', path: `/knowledge-bank/articles/${ids.articleId}/revisions/1/restore` },
    { permission: 'knowledge-bank:read', method: 'GET', path: `/knowledge-bank/articles/${ids.articleId}/links` },
    { permission: 'knowledge-bank:read', method: 'GET', path: `/knowledge-bank/articles/${ids.articleId}/backlinks` },
    { permission: 'knowledge-bank:read', method: 'GET', path: '/knowledge-bank/translations' },
  ] as const;
}

describe('permission matrix', () => {
  it('lets each operation through only with its permission, else 403 missing_permission', async () => {
    const keys = {
      'knowledge-bank:read': (await newKey(ws.slug, ['knowledge-bank:read'])).key,
      'knowledge-bank:write': (await newKey(ws.slug, ['knowledge-bank:read', 'knowledge-bank:write'])).key,
      'knowledge-bank:delete': (await newKey(ws.slug, ['knowledge-bank:delete'])).key,
      none: (await newKey(ws.slug, ['ideas:read'])).key,
    };
    for (const op of operations({ categoryId, articleId })) {
      for (const [held, key] of Object.entries(keys)) {
        const api = clientFor({ host: ws.host, key });
        const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        const res = await api[method](op.path, {
          ...('body' in op ? { body: op.body } : {}),
          ...('headers' in op ? { headers: op.headers } : {}),
        });
        const allowed = held === op.permission || (held === 'knowledge-bank:write' && op.permission === 'knowledge-bank:read');
        if (allowed) expect(res.status, `${op.method} ${op.path} with ${held}`).not.toBe(403);
        else expectErrorEnvelope(res, 403, 'missing_permission');
      }
    }
  });

  it('answers 403 module_disabled when the workspace has the knowledge bank switched off', async () => {
    const off = await kbWorkspace('kb-off');
    await changeModules(adminStore(), off.slug, { disable: ['knowledge-bank'] });
    expectErrorEnvelope(await off.writer.get('/knowledge-bank/categories'), 403, 'module_disabled');
  });

  it('answers 401 without a key', async () => {
    const res = await clientFor({ host: ws.host, key: '' }).get('/knowledge-bank/articles');
    expect(res.status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it('treats another workspace’s article exactly like one that never existed, on every article operation', async () => {
    for (const id of [articleId, UNKNOWN]) {
      for (const op of operations({ categoryId, articleId: id }).filter((o) => o.path.includes('/articles/'))) {
        const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        const res = await other.writer[method](op.path, {
          ...('body' in op ? { body: op.body } : {}),
          ...('headers' in op ? { headers: op.headers } : {}),
        });
        expectErrorEnvelope(res, 404, 'not_found');
      }
    }
    expect((await other.writer.get('/knowledge-bank/articles')).body.articles).toEqual([]);
    expect((await ws.writer.get(`/knowledge-bank/articles/${articleId}`)).status).toBe(200);
  });

  it('refuses another workspace’s category for a new article', async () => {
    const res = await other.writer.post('/knowledge-bank/articles', { body: { categoryId, titleEn: 'Cross' } });
    expectErrorEnvelope(res, 400, 'category_not_found');
  });
});

describe('concurrency', () => {
  it('lets exactly one of two draft saves with the same If-Match win; the loser changes nothing', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'Contended', blocks: [para('start')] });
    const results = await Promise.all(
      ['A', 'B'].map((text) => saveDraft(ws.writer, article.id, { titleEn: 'Contended', blocks: [para(text)] }, '"1"')),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200);
    const stored = (await ws.writer.get(`/knowledge-bank/articles/${article.id}`)).body.article;
    expect(stored.blocks[0].text.en[0].text).toBe(winner?.body.article.blocks[0].text.en[0].text);
    expect(stored.version).toBe(2);
  });

  it('keeps backlinks exact when two articles link to one target at once', async () => {
    const target = await createArticle(ws.writer, { categoryId, titleEn: 'Shared target', blocks: [para('t')] });
    const sources = await Promise.all(
      [1, 2, 3].map((n) => createArticle(ws.writer, { categoryId, titleEn: `Source ${n}`, blocks: [linkTo(target.id)] })),
    );
    const backlinks = (await ws.writer.get(`/knowledge-bank/articles/${target.id}/backlinks`)).body.backlinks;
    expect(backlinks.map((b: { articleId: string }) => b.articleId).sort()).toEqual(sources.map((s) => s.id).sort());
  });

  it('publishes once when two publishes race on one version', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'Raced', blocks: [para('r')] });
    const results = await Promise.all(
      [1, 2].map(() => ws.writer.post(`/knowledge-bank/articles/${article.id}/publish`, { headers: { 'If-Match': '"1"' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions`)).body.pagination.total).toBe(1);
  });
});

describe('DynamoDB round trips', () => {
  it('costs auth (2) + the documented calls per operation', async () => {
    const own = await kbWorkspace('kb-calls');
    const cat = await createCategory(own.writer, { nameEn: 'Counted' });
    const target = await createArticle(own.writer, { categoryId: cat.id, titleEn: 'Counted target', blocks: [para('t')] });
    await publish(own.writer, target.id);
    const article = await createArticle(own.writer, { categoryId: cat.id, titleEn: 'Counted', blocks: [linkTo(target.id)] });
    await insideOneRateLimitWindow(own, 15);
    const api = own.writer;
    const cases: Array<[string, Promise<import('../support/fixtures.ts').ApiResponse>, number]> = [
      ['list categories', api.get('/knowledge-bank/categories'), 1],
      ['get category', api.get(`/knowledge-bank/categories/${cat.id}`), 1],
      ['get article', api.get(`/knowledge-bank/articles/${article.id}`), 1],
      ['list articles', api.get('/knowledge-bank/articles'), 1],
      ['translations', api.get('/knowledge-bank/translations'), 1],
      ['backlinks', api.get(`/knowledge-bank/articles/${target.id}/backlinks`), 2],
      ['links', api.get(`/knowledge-bank/articles/${article.id}/links`), 2],
    ];
    for (const [name, request, calls] of cases) {
      const res = await request;
      expect(res.status, name).toBe(200);
      expect(dynamoDbCalls(res), name).toBe(AUTH_CALLS + calls);
    }
    const created = await api.post('/knowledge-bank/articles', { body: { categoryId: cat.id, titleEn: 'Given slug', slug: 'given-slug' } });
    expect(dynamoDbCalls(created)).toBe(AUTH_CALLS + 1);
    const generated = await api.post('/knowledge-bank/articles', { body: { categoryId: cat.id, titleEn: 'Generated slug' } });
    expect(dynamoDbCalls(generated)).toBe(AUTH_CALLS + 2); // + the Query of taken slugs
    const draft = await saveDraft(api, article.id, { titleEn: 'Counted', blocks: [linkTo(target.id)] });
    expect(dynamoDbCalls(draft)).toBe(AUTH_CALLS + 2); // BatchGet + transaction
    const published = await api.post(`/knowledge-bank/articles/${article.id}/publish`);
    expect(dynamoDbCalls(published)).toBe(AUTH_CALLS + 3); // BatchGet + linked targets + transaction
    const revisions = await api.get(`/knowledge-bank/articles/${article.id}/revisions`);
    expect(dynamoDbCalls(revisions)).toBe(AUTH_CALLS + 2); // metadata + the page's range
    const revision = await api.get(`/knowledge-bank/articles/${article.id}/revisions/1`);
    expect(dynamoDbCalls(revision)).toBe(AUTH_CALLS + 1);
    const patched = await api.patch(`/knowledge-bank/articles/${article.id}`, { body: { tags: ['counted'] } });
    expect(dynamoDbCalls(patched)).toBe(AUTH_CALLS + 2); // BatchGet + transaction
    const restored = await api.post(`/knowledge-bank/articles/${article.id}/revisions/1/restore`);
    expect(dynamoDbCalls(restored)).toBe(AUTH_CALLS + 2);
    const unpublished = await api.post(`/knowledge-bank/articles/${article.id}/unpublish`);
    expect(dynamoDbCalls(unpublished)).toBe(AUTH_CALLS + 2);
    const category = await api.post('/knowledge-bank/categories', { body: { nameEn: 'Counted too' } });
    expect(dynamoDbCalls(category)).toBe(AUTH_CALLS + 2); // the tree + transaction
    for (const res of [patched, restored, unpublished, category]) expect(res.status).toBeLessThan(300);
  });
});
