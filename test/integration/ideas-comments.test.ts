/** Comments on ideas (issue 39): bilingual, public or internal, authors never echoed, If-Match, totals by visibility. */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, expectErrorEnvelope, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, etagOf, ideasWorkspace } from '../support/ideas.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await ideasWorkspace('comments');
  api = clientFor(ws);
});

const write = (body: string, extra: Record<string, unknown> = {}) => ({
  body: { body, author: { email: 'rania@example.com', name: 'Rania' }, ...extra },
});

describe('comments', { timeout: 180_000 }, () => {
  it('creates, lists newest first (by visibility too, with its total), changes with If-Match and deletes', async () => {
    const { id } = (await createIdea(ws)).body.data;
    const first = await api.post(`/ideas/${id}/comments`, write('First', { bodyAr: 'الأول' }));
    expect(first.status, first.text).toBe(201);
    expect(first.body.comment).toMatchObject({
      ideaId: id,
      body: 'First',
      bodyAr: 'الأول',
      authorName: 'Rania',
      visibility: 'public',
      version: 1,
    });
    expect(first.text).not.toContain('rania@example.com');
    const internal = await api.post(`/ideas/${id}/comments`, write('Team only', { visibility: 'internal' }));
    const third = await api.post(`/ideas/${id}/comments`, write('Third'));

    const all = await api.get(`/ideas/${id}/comments`);
    expect(all.body.comments.map((c: { body: string }) => c.body)).toEqual(['Third', 'Team only', 'First']);
    expect(all.body.pagination.total).toBe(3);
    const publicOnly = await api.get(`/ideas/${id}/comments?visibility=public&limit=1`);
    expect(publicOnly.body.comments.map((c: { body: string }) => c.body)).toEqual(['Third']);
    expect(publicOnly.body.pagination).toMatchObject({ total: 2, hasMore: true });
    const rest = await api.get(
      `/ideas/${id}/comments?visibility=public&limit=1&cursor=${encodeURIComponent(publicOnly.body.pagination.nextCursor)}`,
    );
    expect(rest.body.comments.map((c: { body: string }) => c.body)).toEqual(['First']);

    const path = `/ideas/${id}/comments/${internal.body.comment.id}`;
    expectErrorEnvelope(await api.patch(path, { body: { visibility: 'public' }, headers: { 'If-Match': '"2"' } }), 409, 'version_conflict');
    const moved = await api.patch(path, { body: { visibility: 'public', bodyAr: 'للفريق' }, headers: { 'If-Match': etagOf(internal) } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.comment).toMatchObject({ visibility: 'public', bodyAr: 'للفريق', version: 2 });
    expect((await api.get(`/ideas/${id}/comments?visibility=public`)).body.pagination.total).toBe(3);
    expect((await api.get(`/ideas/${id}/comments?visibility=internal`)).body.pagination.total).toBe(0);

    expect((await api.delete(`/ideas/${id}/comments/${third.body.comment.id}`, { headers: { 'If-Match': '"1"' } })).status).toBe(200);
    expect((await api.get(`/ideas/${id}/comments`)).body.pagination.total).toBe(2);
    expectErrorEnvelope(await api.delete(`/ideas/${id}/comments/${third.body.comment.id}`), 404, 'not_found');
  });

  it('refuses a blank body, an unknown visibility and an author without an identifier', async () => {
    const { id } = (await createIdea(ws)).body.data;
    for (const body of [
      { body: '  ', author: { email: 'a@example.com' } },
      { body: 'Hi', author: { email: 'a@example.com' }, visibility: 'secret' },
      { body: 'Hi', author: { name: 'Nobody' } },
      { body: 'x'.repeat(4001), author: { externalId: 'c-1' } },
    ]) {
      expectErrorEnvelope(await api.post(`/ideas/${id}/comments`, { body }), 400, 'invalid_body');
    }
    expect((await api.get(`/ideas/${id}/comments`)).body.pagination.total).toBe(0);
  });

  it('answers 404 for an idea of another workspace, and for a comment through another idea', async () => {
    const other = await ideasWorkspace('comments-tenant');
    const { id: foreign } = (await createIdea(other)).body.data;
    expectErrorEnvelope(await api.post(`/ideas/${foreign}/comments`, write('Hello')), 404, 'not_found');
    expectErrorEnvelope(await api.get(`/ideas/${foreign}/comments`), 404, 'not_found');
    const { id } = (await createIdea(ws)).body.data;
    const { id: elsewhere } = (await createIdea(ws)).body.data;
    const comment = (await api.post(`/ideas/${id}/comments`, write('Mine'))).body.comment;
    expectErrorEnvelope(await api.patch(`/ideas/${elsewhere}/comments/${comment.id}`, { body: { body: 'Stolen' } }), 404, 'not_found');
  });
});
