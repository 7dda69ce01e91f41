/**
 * Votes on behalf of customers (issue 39): counted once per voter, also when a voter's requests race;
 * exact counts on the idea and in lists; the lists by votes and trending; people never echoed; tenancy.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, expectErrorEnvelope, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, etagOf, ideasWorkspace } from '../support/ideas.ts';
import { castVotes, rankedIds, waitForRanks } from '../support/votes.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await ideasWorkspace('votes');
  api = clientFor(ws);
});

describe('POST /ideas/{id}/votes', { timeout: 180_000 }, () => {
  it('answers 201 with a new vote, then 200 with the same vote changed, and counts the voter once', async () => {
    const { id } = (await createIdea(ws)).body.data;
    const first = await api.post(`/ideas/${id}/votes`, { body: { voter: { email: 'Ann@Example.com' }, importance: 'important' } });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('location')).toBe(`/api/v1/ideas/${id}/votes`);
    expect(first.body.vote).toMatchObject({ ideaId: id, importance: 'important', note: null, direct: true, mergedFrom: [], version: 1 });
    const again = await api.post(`/ideas/${id}/votes`, {
      body: { voter: { email: 'ann@example.com' }, importance: 'critical', note: 'We lose customers over it' },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.vote).toMatchObject({
      id: first.body.vote.id,
      voterRef: first.body.vote.voterRef,
      importance: 'critical',
      version: 2,
    });
    expect(etagOf(again)).toBe('"2"');
    const idea = (await api.get(`/ideas/${id}`)).body.data;
    expect(idea.voteCount).toBe(1);
    expect(idea.importance).toEqual({ nice: 0, important: 0, critical: 1 });
  });

  it('counts one voter once when ten of their requests race', async () => {
    const { id } = (await createIdea(ws)).body.data;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post(`/ideas/${id}/votes`, { body: { voter: { externalId: 'customer-42' }, importance: i % 2 ? 'nice' : 'critical' } }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((res) => res.body.vote.id)).size).toBe(1);
    const idea = (await api.get(`/ideas/${id}`)).body.data;
    expect(idea.voteCount).toBe(1);
    expect(idea.importance.nice + idea.importance.critical).toBe(1);
    const votes = await api.get(`/ideas/${id}/votes`);
    expect(votes.body.pagination.total).toBe(1);
    expect(votes.body.votes[0].version).toBe(10);
  });

  it('counts exactly after a burst of distinct voters', async () => {
    const { id } = (await createIdea(ws)).body.data;
    await castVotes(ws, id, 60);
    expect((await api.get(`/ideas/${id}`)).body.data.voteCount).toBe(60);
    expect((await api.get(`/ideas/${id}/votes?limit=100`)).body.pagination.total).toBe(60);
  });

  it('never echoes a voter’s e-mail or external id; the reference is stable per workspace and differs between workspaces', async () => {
    const { id } = (await createIdea(ws)).body.data;
    const other = await ideasWorkspace('votes-other');
    const { id: otherIdea } = (await createIdea(other)).body.data;
    const voter = { email: 'secret.person@example.com' };
    const here = await api.post(`/ideas/${id}/votes`, { body: { voter } });
    const comment = await api.post(`/ideas/${id}/comments`, { body: { body: 'Yes please', author: { ...voter, name: 'S.' } } });
    const there = await clientFor(other).post(`/ideas/${otherIdea}/votes`, { body: { voter } });
    for (const res of [here, comment, there, await api.get(`/ideas/${id}/votes`)]) {
      expect(res.text).not.toContain('secret.person');
    }
    expect(comment.body.comment.authorRef).toBe(here.body.vote.voterRef);
    expect(there.body.vote.voterRef).not.toBe(here.body.vote.voterRef);
  });

  it('validates the voter as a submitter is validated, and refuses an unknown member', async () => {
    const { id } = (await createIdea(ws)).body.data;
    for (const body of [
      { voter: { email: 'not-an-email' } },
      { voter: {} },
      { voter: { email: 'a@b.co', externalId: 'x' } },
      { voter: { email: 'a@b.co' }, importance: 'urgent' },
    ]) {
      expectErrorEnvelope(await api.post(`/ideas/${id}/votes`, { body }), 400, 'invalid_body');
    }
    expect((await api.get(`/ideas/${id}`)).body.data.voteCount).toBe(0);
  });

  it('answers 404 for an idea of another workspace, as for one that never existed', async () => {
    const other = await ideasWorkspace('votes-tenant');
    const { id } = (await createIdea(other)).body.data;
    expectErrorEnvelope(await api.post(`/ideas/${id}/votes`, { body: { voter: { email: 'a@example.com' } } }), 404, 'not_found');
    expectErrorEnvelope(await api.get(`/ideas/${id}/votes`), 404, 'not_found');
  });

  it('replays a retry under its Idempotency-Key and changes nothing', async () => {
    const { id } = (await createIdea(ws)).body.data;
    const headers = { 'Idempotency-Key': `vote-${id}` };
    const first = await api.post(`/ideas/${id}/votes`, { body: { voter: { externalId: 'retry-1' } }, headers });
    const replay = await api.post(`/ideas/${id}/votes`, { body: { voter: { externalId: 'retry-1' } }, headers });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([201, 'true', first.body]);
    expectErrorEnvelope(
      await api.post(`/ideas/${id}/votes`, { body: { voter: { externalId: 'retry-2' } }, headers }),
      409,
      'idempotency_key_reused',
    );
    expect((await api.get(`/ideas/${id}`)).body.data.voteCount).toBe(1);
  });
});

describe('DELETE /ideas/{id}/votes/{voteId}', { timeout: 180_000 }, () => {
  it('withdraws the vote (with If-Match), and the count follows', async () => {
    const { id } = (await createIdea(ws)).body.data;
    const vote = (await api.post(`/ideas/${id}/votes`, { body: { voter: { email: 'leaving@example.com' }, importance: 'critical' } })).body
      .vote;
    await castVotes(ws, id, 2);
    expectErrorEnvelope(await api.delete(`/ideas/${id}/votes/${vote.id}`, { headers: { 'If-Match': '"9"' } }), 409, 'version_conflict');
    const res = await api.delete(`/ideas/${id}/votes/${vote.id}`, { headers: { 'If-Match': '"1"' } });
    expect(res.status, res.text).toBe(200);
    const idea = (await api.get(`/ideas/${id}`)).body.data;
    expect([idea.voteCount, idea.importance.critical]).toEqual([2, 0]);
    expectErrorEnvelope(await api.delete(`/ideas/${id}/votes/${vote.id}`), 404, 'not_found');
  });
});

describe('GET /ideas/{id}/votes', { timeout: 180_000 }, () => {
  it('pages by offset and by cursor, every vote once, with the total', async () => {
    const { id } = (await createIdea(ws)).body.data;
    await castVotes(ws, id, 7);
    const byOffset = await api.get(`/ideas/${id}/votes?limit=3&offset=3`);
    expect(byOffset.body.pagination).toMatchObject({ limit: 3, offset: 3, total: 7, hasMore: true });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`/ideas/${id}/votes?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.body.votes.map((vote: { id: string }) => vote.id));
      cursor = page.body.pagination.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(7);
  });
});

describe('GET /ideas?sort=', { timeout: 180_000 }, () => {
  it('orders by votes both ways and by trending, with each idea’s exact count', async () => {
    const sorted = await ideasWorkspace('votes-sort');
    const ideas = [];
    for (const votes of [2, 5, 0, 3]) {
      const { id } = (await createIdea(sorted, { title: `Idea with ${votes}` })).body.data;
      await castVotes(sorted, id, votes);
      ideas.push({ id, votes });
    }
    await waitForRanks(sorted, ideas);
    const byVotes = [...ideas].sort((a, b) => b.votes - a.votes).map((idea) => idea.id);
    expect(await rankedIds(sorted, '-votes')).toEqual(byVotes);
    expect(await rankedIds(sorted, 'votes')).toEqual([...byVotes].reverse());
    // All votes were cast within seconds: trending orders as the counts do.
    expect(await rankedIds(sorted, 'trending')).toEqual(byVotes);
    const page = await clientFor(sorted).get('/ideas?sort=-votes&limit=2');
    expect(page.body.data.map((idea: { voteCount: number }) => idea.voteCount)).toEqual([5, 3]);
    expect(page.body.pagination).toMatchObject({ total: 4, hasMore: true });
    const next = await clientFor(sorted).get(`/ideas?sort=-votes&limit=2&cursor=${encodeURIComponent(page.body.pagination.nextCursor)}`);
    expect(next.body.data.map((idea: { voteCount: number }) => idea.voteCount)).toEqual([2, 0]);
    const newest = await clientFor(sorted).get('/ideas?sort=createdAt');
    expect(newest.body.data.map((idea: { id: string; voteCount: number }) => [idea.id, idea.voteCount])).toEqual(
      ideas.map((idea) => [idea.id, idea.votes]),
    );
  });
});
