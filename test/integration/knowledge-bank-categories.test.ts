/** Knowledge-bank categories over HTTP: CRUD, the tree rules, slugs, emptiness, concurrency and cost. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { kbCategorySlugEntity } from '../../lib/knowledge-bank/entities.ts';
import { AUTH_CALLS, adminStore, dynamoDbCalls, expectErrorEnvelope, sandbox } from '../support/fixtures.ts';
import { createArticle, createCategory, insideOneRateLimitWindow, type KbWorkspace, kbWorkspace } from '../support/knowledge-bank.ts';

let ws: KbWorkspace;
let other: KbWorkspace;

beforeAll(async () => {
  [ws, other] = await Promise.all([kbWorkspace('kb-cat'), kbWorkspace('kb-cat-other')]);
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /knowledge-bank/categories', () => {
  it('creates a top-level category with a generated slug, ETag and Location', async () => {
    const res = await ws.writer.post('/knowledge-bank/categories', {
      body: { nameEn: 'Getting started', nameAr: 'البدء', descriptionEn: 'First steps' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ok: true,
      category: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        parentId: null,
        depth: 1,
        nameEn: 'Getting started',
        nameAr: 'البدء',
        descriptionEn: 'First steps',
        descriptionAr: null,
        slug: 'getting-started',
        position: expect.any(Number),
        visibility: 'public',
        articleCount: 0,
        version: 1,
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      },
    });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('location')).toBe(`/api/v1/knowledge-bank/categories/${res.body.category.id}`);
  });

  it('makes an Arabic slug from an Arabic-only name, and suffixes a clash', async () => {
    const first = await createCategory(ws.writer, { nameEn: undefined, nameAr: 'الفواتير والمدفوعات' });
    const second = await createCategory(ws.writer, { nameEn: undefined, nameAr: 'الفواتير والمدفوعات' });
    expect(first.slug).toBe('الفواتير-والمدفوعات');
    expect(second.slug).toBe('الفواتير-والمدفوعات-2');
  });

  it('refuses a given slug that is taken with 409 slug_taken', async () => {
    await createCategory(ws.writer, { slug: 'taken-slug' });
    const res = await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Other', slug: 'taken-slug' } });
    expectErrorEnvelope(res, 409, 'slug_taken');
  });

  it.each([
    ['no name', {}],
    ['a blank name', { nameEn: '   ' }],
    ['a name over 200 characters', { nameAr: 'ب'.repeat(201) }],
    ['an unknown field', { nameEn: 'x', colour: 'red' }],
    ['a bad slug', { nameEn: 'x', slug: 'Has Spaces' }],
    ['a bad visibility', { nameEn: 'x', visibility: 'secret' }],
  ])('refuses %s with 400 invalid_body', async (_, body) => {
    expectErrorEnvelope(await ws.writer.post('/knowledge-bank/categories', { body }), 400, 'invalid_body');
  });

  it('refuses a parent that does not exist, or is another workspace’s', async () => {
    const foreign = await createCategory(other.writer);
    for (const parentId of [foreign.id, '00000000-0000-4000-8000-000000000000']) {
      expectErrorEnvelope(await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'x', parentId } }), 400, 'parent_not_found');
    }
  });

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const headers = { 'Idempotency-Key': `cat-${Date.now()}` };
    const first = await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Once' }, headers });
    const again = await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Once' }, headers });
    expect(again.status).toBe(201);
    expect(again.body.category.id).toBe(first.body.category.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const list = await ws.writer.get('/knowledge-bank/categories');
    expect(list.body.categories.filter((c: { nameEn: string }) => c.nameEn === 'Once')).toHaveLength(1);
    expectErrorEnvelope(
      await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Twice' }, headers }),
      409,
      'idempotency_key_reused',
    );
  });
});

describe('category tree', () => {
  it('nests three levels, refuses a fourth, and lists parent before children by position', async () => {
    const tree = await kbWorkspace('kb-tree');
    const root = await createCategory(tree.writer, { nameEn: 'Root', position: 1 });
    const first = await createCategory(tree.writer, { nameEn: 'First', position: 0 });
    const child2 = await createCategory(tree.writer, { nameEn: 'Child two', parentId: root.id, position: 2 });
    const child1 = await createCategory(tree.writer, { nameEn: 'Child one', parentId: root.id, position: 1 });
    const grandchild = await createCategory(tree.writer, { nameEn: 'Grandchild', parentId: child1.id });
    expect(grandchild.depth).toBe(3);
    expectErrorEnvelope(
      await tree.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Too deep', parentId: grandchild.id } }),
      400,
      'category_too_deep',
    );
    const list = await tree.reader.get('/knowledge-bank/categories');
    expect(list.status).toBe(200);
    expect(list.body.categories.map((c: { nameEn: string; depth: number }) => [c.nameEn, c.depth])).toEqual([
      ['First', 1],
      ['Root', 1],
      ['Child one', 2],
      ['Grandchild', 3],
      ['Child two', 2],
    ]);
    void first;
    void child2;
  });

  it('moves a category with its subtree, refusing cycles and a 4th level', async () => {
    const tree = await kbWorkspace('kb-move');
    const a = await createCategory(tree.writer, { nameEn: 'A' });
    const b = await createCategory(tree.writer, { nameEn: 'B', parentId: a.id });
    const c = await createCategory(tree.writer, { nameEn: 'C', parentId: b.id });
    const d = await createCategory(tree.writer, { nameEn: 'D' });
    const e = await createCategory(tree.writer, { nameEn: 'E', parentId: d.id });
    expectErrorEnvelope(await tree.writer.patch(`/knowledge-bank/categories/${a.id}`, { body: { parentId: c.id } }), 400, 'category_cycle');
    expectErrorEnvelope(await tree.writer.patch(`/knowledge-bank/categories/${a.id}`, { body: { parentId: a.id } }), 400, 'category_cycle');
    // B carries C: under E that would be D > E > B > C.
    expectErrorEnvelope(
      await tree.writer.patch(`/knowledge-bank/categories/${b.id}`, { body: { parentId: e.id } }),
      400,
      'category_too_deep',
    );
    const moved = await tree.writer.patch(`/knowledge-bank/categories/${b.id}`, { body: { parentId: d.id, position: 5 } });
    expect(moved.status).toBe(200);
    expect(moved.body.category).toMatchObject({ parentId: d.id, depth: 2, position: 5, version: 2 });
    const list = await tree.writer.get('/knowledge-bank/categories');
    expect(list.body.categories.map((x: { nameEn: string }) => x.nameEn)).toEqual(['A', 'D', 'E', 'B', 'C']);
    // A lost its only child, so it can go; D now holds B.
    expect((await tree.writer.delete(`/knowledge-bank/categories/${a.id}`)).status).toBe(200);
    expectErrorEnvelope(await tree.writer.delete(`/knowledge-bank/categories/${d.id}`), 409, 'category_not_empty');
    const top = await tree.writer.patch(`/knowledge-bank/categories/${b.id}`, { body: { parentId: null } });
    expect(top.body.category).toMatchObject({ parentId: null, depth: 1 });
  });
});

describe('GET, PATCH and DELETE /knowledge-bank/categories/{categoryId}', () => {
  it('reads a category with its ETag in one DynamoDB call after auth', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Readable' });
    await insideOneRateLimitWindow(ws);
    const res = await ws.writer.get(`/knowledge-bank/categories/${category.id}`);
    expect(res.status).toBe(200);
    expect(res.body.category).toEqual(category);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(dynamoDbCalls(res)).toBe(AUTH_CALLS + 1); // auth (3) + one Query of the tree
    expect((await ws.reader.get(`/knowledge-bank/categories/${category.id}`)).body.category).toEqual(category);
  });

  it('renames, changes the slug and honours If-Match', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Old name' });
    const stale = await ws.writer.patch(`/knowledge-bank/categories/${category.id}`, {
      body: { nameEn: 'New' },
      headers: { 'If-Match': '"7"' },
    });
    expectErrorEnvelope(stale, 409, 'version_conflict');
    expect(stale.headers.get('etag')).toBe('"1"');
    const res = await ws.writer.patch(`/knowledge-bank/categories/${category.id}`, {
      body: { nameEn: 'New name', nameAr: 'اسم جديد', slug: 'new-name' },
      headers: { 'If-Match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body.category).toMatchObject({ nameEn: 'New name', nameAr: 'اسم جديد', slug: 'new-name', version: 2 });
    // The old slug is free again; the new one is taken.
    expect((await createCategory(ws.writer, { slug: category.slug })).slug).toBe(category.slug);
    expectErrorEnvelope(await ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'x', slug: 'new-name' } }), 409, 'slug_taken');
  });

  it('refuses clearing both names', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Named' });
    expectErrorEnvelope(
      await ws.writer.patch(`/knowledge-bank/categories/${category.id}`, { body: { nameEn: null } }),
      400,
      'invalid_body',
    );
  });

  it('refuses to delete a category holding an article, then deletes it once empty', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Holds one' });
    const article = await createArticle(ws.writer, { categoryId: category.id });
    expect((await ws.writer.get(`/knowledge-bank/categories/${category.id}`)).body.category.articleCount).toBe(1);
    expectErrorEnvelope(await ws.writer.delete(`/knowledge-bank/categories/${category.id}`), 409, 'category_not_empty');
    expect((await ws.writer.delete(`/knowledge-bank/articles/${article.id}`)).status).toBe(200);
    const res = await ws.writer.delete(`/knowledge-bank/categories/${category.id}`, { headers: { 'If-Match': '"1"' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/categories/${category.id}`), 404, 'not_found');
    const { Item } = await adminStore().db.send(
      new GetCommand({ TableName: sandbox.tableName, Key: kbCategorySlugEntity.keys.slug(ws.slug, category.slug), ConsistentRead: true }),
    );
    expect(Item).toBeUndefined();
  });

  it('deletes an empty second- and third-level category, and then their parents once empty', async () => {
    // Deleting a child also lowers its parent's childCount in the same transaction (an UpdateItem).
    const tree = await kbWorkspace('kb-delete-sub');
    const root = await createCategory(tree.writer, { nameEn: 'Root' });
    const child = await createCategory(tree.writer, { nameEn: 'Child', parentId: root.id });
    const grandchild = await createCategory(tree.writer, { nameEn: 'Grandchild', parentId: child.id });
    expectErrorEnvelope(await tree.writer.delete(`/knowledge-bank/categories/${child.id}`), 409, 'category_not_empty');
    for (const id of [grandchild.id, child.id, root.id]) {
      const res = await tree.writer.delete(`/knowledge-bank/categories/${id}`);
      expect([res.status, res.body], id).toEqual([200, { ok: true }]);
    }
    const list = await tree.reader.get('/knowledge-bank/categories');
    expect(list.body.categories).toEqual([]);
  });

  it('answers another workspace’s category with the same 404 as a missing one', async () => {
    const foreign = await createCategory(other.writer, { nameEn: 'Theirs' });
    for (const id of [foreign.id, '00000000-0000-4000-8000-000000000000']) {
      expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/categories/${id}`), 404, 'not_found');
      expectErrorEnvelope(await ws.writer.patch(`/knowledge-bank/categories/${id}`, { body: { nameEn: 'Mine' } }), 404, 'not_found');
      expectErrorEnvelope(await ws.writer.delete(`/knowledge-bank/categories/${id}`), 404, 'not_found');
    }
    expect((await other.writer.get(`/knowledge-bank/categories/${foreign.id}`)).body.category.nameEn).toBe('Theirs');
  });

  it('refuses a path id that is not a UUID with 400 invalid_path', async () => {
    expectErrorEnvelope(await ws.writer.get('/knowledge-bank/categories/not-a-uuid'), 400, 'invalid_path');
  });
});

describe('concurrent category writes', () => {
  it('lets exactly one of two PATCHes with the same If-Match win', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Contended' });
    const [a, b] = await Promise.all(
      ['One', 'Two'].map((nameEn) =>
        ws.writer.patch(`/knowledge-bank/categories/${category.id}`, { body: { nameEn }, headers: { 'If-Match': '"1"' } }),
      ),
    );
    expect([a?.status, b?.status].sort()).toEqual([200, 409]);
  });

  it('keeps articleCount exact while the category is renamed during article creates', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Busy' });
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        ws.writer.post('/knowledge-bank/articles', { body: { categoryId: category.id, titleEn: `Busy ${i}` } }),
      ),
      ...Array.from({ length: 3 }, (_, i) =>
        ws.writer.patch(`/knowledge-bank/categories/${category.id}`, { body: { nameEn: `Busy ${i}` } }),
      ),
    ]);
    const createdArticles = results.slice(0, 6).filter((r) => r.status === 201).length;
    expect(createdArticles).toBe(6);
    const after = await ws.writer.get(`/knowledge-bank/categories/${category.id}`);
    expect(after.body.category.articleCount).toBe(6);
  });

  it('gives each of many concurrent creates under one parent its own slug', async () => {
    const parent = await createCategory(ws.writer, { nameEn: 'Parent of many' });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => ws.writer.post('/knowledge-bank/categories', { body: { nameEn: 'Same name', parentId: parent.id } })),
    );
    const created = results.filter((r) => r.status === 201);
    // A create that lost the race for the tree or the slug says so (409) rather than corrupting either.
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(new Set(created.map((r) => r.body.category.slug)).size).toBe(created.length);
  });
});
