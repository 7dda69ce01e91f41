/**
 * Merge and an exact unmerge (issue 39): the target counts every distinct voter once, the merged idea
 * leaves the lists and takes no votes, no chains; an unmerge puts both back exactly (votes cast on the
 * target meanwhile stay); a merge racing new votes loses none and counts none twice; 10,000 votes move
 * exactly (how fast is measured by `npm run bench`, not here: this machine's DynamoDB Local is no region).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, expectErrorEnvelope, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, etagOf, ideasWorkspace } from '../support/ideas.ts';
import { seededRef, seedVotes } from '../support/vote-items.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await ideasWorkspace('merge');
  api = clientFor(ws);
});

const vote = async (ideaId: string, email: string, importance = 'nice') => {
  const res = await api.post(`/ideas/${ideaId}/votes`, { body: { voter: { email }, importance } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`vote ${res.status}: ${res.text}`);
  return res.body.vote;
};
const ideaOf = async (id: string) => (await api.get(`/ideas/${id}`)).body.data;
const votersOf = async (id: string) => {
  const res = await api.get(`/ideas/${id}/votes?limit=100`);
  return res.body.votes.map((v: { voterRef: string }) => v.voterRef).sort();
};
/**
 * Until the idea's merge or unmerge has moved every vote: a 200 answers once they have; a 202 (the
 * request ran out of time, or DynamoDB Local kept it waiting) hands the rest to the table stream, and
 * an unmerge probe answers 409 `merge_in_progress` until it is done (then `version_conflict` or
 * `idea_not_merged`, for the version "0" it sends).
 */
async function movedAll(id: string, res: Awaited<ReturnType<typeof api.post>>) {
  expect([200, 202], res.text).toContain(res.status);
  if (res.status === 200) return res;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const probe = await api.post(`/ideas/${id}/unmerge`, { headers: { 'If-Match': '"0"' } });
    if (probe.body.error === 'version_conflict' || probe.body.error === 'idea_not_merged') return res;
    expect(probe.body.error, probe.text).toBe('merge_in_progress');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The votes of ${id}'s merge never finished moving`);
}
const merge = async (id: string, into: string) =>
  movedAll(id, await api.post(`/ideas/${id}/merge`, { body: { into }, headers: { 'If-Match': `"${(await ideaOf(id)).version}"` } }));
const unmerge = async (id: string) =>
  movedAll(id, await api.post(`/ideas/${id}/unmerge`, { headers: { 'If-Match': `"${(await ideaOf(id)).version}"` } }));

describe('merge', { timeout: 180_000 }, () => {
  it('counts every distinct voter of both on the target, shows the comments of both, and hides the merged idea', async () => {
    const { id: source } = (await createIdea(ws, { title: 'Dark theme' })).body.data;
    const { id: target } = (await createIdea(ws, { title: 'Dark mode' })).body.data;
    for (const who of ['a1', 'a2', 'a3', 'shared1', 'shared2']) await vote(source, `${who}@example.com`, 'critical');
    for (const who of ['b1', 'b2', 'shared1', 'shared2']) await vote(target, `${who}@example.com`);
    await api.post(`/ideas/${source}/comments`, { body: { body: 'On the duplicate', author: { externalId: 'c1' } } });
    await api.post(`/ideas/${target}/comments`, { body: { body: 'On the original', author: { externalId: 'c2' } } });

    const res = await merge(source, target);
    expect(res.body.data).toMatchObject({ id: source, mergedInto: target, voteCount: 5 });
    expect(res.body.target).toMatchObject({
      id: target,
      mergedFrom: [source],
      voteCount: 7,
      importance: { nice: 4, important: 0, critical: 3 },
    });
    expect(etagOf(res)).toBe(`"${res.body.data.version}"`);
    expect((await api.get(`/ideas/${target}/votes?limit=100`)).body.pagination.total).toBe(7);
    const comments = (await api.get(`/ideas/${target}/comments`)).body.comments;
    expect(comments.map((c: { body: string; ideaId: string }) => [c.body, c.ideaId])).toEqual([
      ['On the original', target],
      ['On the duplicate', source],
    ]);
    const listed = (await api.get('/ideas?limit=100')).body.data.map((idea: { id: string }) => idea.id);
    expect(listed).toContain(target);
    expect(listed).not.toContain(source);
    expect((await api.get('/ideas?limit=100&includeMerged=true')).body.data.map((idea: { id: string }) => idea.id)).toContain(source);
    expectErrorEnvelope(await api.post(`/ideas/${source}/votes`, { body: { voter: { email: 'late@example.com' } } }), 409, 'idea_merged');
    expectErrorEnvelope(
      await api.post(`/ideas/${source}/comments`, { body: { body: 'Late', author: { externalId: 'c3' } } }),
      409,
      'idea_merged',
    );
  });

  it('never chains, and refuses a merge into itself, a missing or stale If-Match and an unknown target', async () => {
    const [a, b, c] = await Promise.all([createIdea(ws), createIdea(ws), createIdea(ws)]).then((all) => all.map((res) => res.body.data.id));
    const post = (id: string, into: string, headers: Record<string, string> = { 'If-Match': '*' }) =>
      api.post(`/ideas/${id}/merge`, { body: { into }, headers });
    expectErrorEnvelope(await post(a, a), 400, 'merge_into_itself');
    expectErrorEnvelope(await post(a, b, {}), 400, 'if_match_required');
    expectErrorEnvelope(await post(a, b, { 'If-Match': '"7"' }), 409, 'version_conflict');
    expectErrorEnvelope(await post(a, '01900000-0000-7000-8000-0000000000cc'), 400, 'merge_target_not_found');
    await merge(a, b);
    expectErrorEnvelope(await post(c, a), 409, 'idea_merged');
    expectErrorEnvelope(await post(b, c), 409, 'idea_has_merged_ideas');
    expectErrorEnvelope(await post(a, c), 409, 'idea_merged');
    expectErrorEnvelope(await api.delete(`/ideas/${b}`), 409, 'idea_has_merged_ideas');
    expectErrorEnvelope(await api.post(`/ideas/${c}/unmerge`, { headers: { 'If-Match': '*' } }), 409, 'idea_not_merged');
  }, 180_000);
});

describe('unmerge', { timeout: 180_000 }, () => {
  it('puts both ideas back exactly; votes cast on the target after the merge stay there', async () => {
    const { id: source } = (await createIdea(ws)).body.data;
    const { id: target } = (await createIdea(ws)).body.data;
    for (const who of ['s1', 's2', 's3', 'both']) await vote(source, `${who}@example.com`, 'important');
    for (const who of ['t1', 'both']) await vote(target, `${who}@example.com`);
    const [sourceBefore, targetBefore] = [await votersOf(source), await votersOf(target)];
    const sourceIdea = await ideaOf(source);

    await merge(source, target);
    const late = await vote(target, 'late@example.com');
    const s1Again = await vote(target, 's1@example.com', 'critical');
    expect(s1Again).toMatchObject({ direct: true, mergedFrom: [source] });
    // s1, s2, s3 and both, t1, and late: s1 voting on the target again is still one voter.
    expect((await ideaOf(target)).voteCount).toBe(6);

    const res = await unmerge(source);
    expect(res.body.data).toMatchObject({ mergedInto: null, voteCount: 4 });
    expect(await ideaOf(target)).toMatchObject({ mergedFrom: [], voteCount: 4 });
    expect(await votersOf(source)).toEqual(sourceBefore);
    expect(await votersOf(target)).toEqual([...targetBefore, late.voterRef, s1Again.voterRef].sort());
    const { version: _v, updatedAt: _u, ...unchanged } = sourceIdea;
    expect(await ideaOf(source)).toMatchObject(unchanged);
    expect((await api.get(`/ideas/${target}`)).body.data.importance).toEqual({ nice: 3, important: 0, critical: 1 });
    const listed = (await api.get('/ideas?limit=100')).body.data.map((idea: { id: string }) => idea.id);
    expect(listed).toContain(source);
  }, 180_000);

  it('does not bring back a vote withdrawn from the target while merged', async () => {
    const { id: source } = (await createIdea(ws)).body.data;
    const { id: target } = (await createIdea(ws)).body.data;
    const leaving = await vote(source, 'leaving@example.com');
    await vote(source, 'staying@example.com');
    await merge(source, target);
    const carried = (await api.get(`/ideas/${target}/votes`)).body.votes.find((v: { voterRef: string }) => v.voterRef === leaving.voterRef);
    expect(carried).toMatchObject({ direct: false, mergedFrom: [source] });
    expect((await api.delete(`/ideas/${target}/votes/${carried.id}`)).status).toBe(200);
    expect((await ideaOf(target)).voteCount).toBe(1);
    await unmerge(source);
    expect([(await ideaOf(source)).voteCount, (await ideaOf(target)).voteCount]).toEqual([1, 0]);
  }, 180_000);
});

describe('a merge racing new votes', { timeout: 180_000 }, () => {
  it('loses no vote and counts none twice', async () => {
    const { id: source } = (await createIdea(ws)).body.data;
    const { id: target } = (await createIdea(ws)).body.data;
    await Promise.all(Array.from({ length: 30 }, (_, i) => vote(source, `early-${i}@example.com`)));
    // While the merge runs: new customers vote on both ideas, some on both, some early voters again.
    const racing: (readonly [string, string])[] = Array.from({ length: 40 }, (_, i) => [
      i % 2 ? source : target,
      `race-${i % 25}@example.com`,
    ]);
    racing.push(...Array.from({ length: 10 }, (_, i) => [target, `early-${i}@example.com`] as const));
    const [merged, ...answers] = await Promise.all([
      api.post(`/ideas/${source}/merge`, { body: { into: target }, headers: { 'If-Match': '"1"' } }),
      ...racing.map(([idea, email]) => api.post(`/ideas/${idea}/votes`, { body: { voter: { email } } })),
    ]);
    await movedAll(source, merged);
    // A vote on the merged idea either landed before the merge (and was carried) or was refused after it.
    for (const res of answers) expect([200, 201, 409]).toContain(res.status);
    const accepted = new Set(answers.filter((res) => res.status !== 409).map((res) => res.body.vote.voterRef as string));
    const early = (await api.get(`/ideas/${source}/votes?limit=100`)).body.votes.map((v: { voterRef: string }) => v.voterRef);
    const expected = new Set([...early, ...accepted]);
    const target_ = await ideaOf(target);
    expect(target_.voteCount).toBe(expected.size);
    expect(new Set(await votersOf(target))).toEqual(expected);
  }, 180_000);
});

describe('a merge of 10,000 votes', { timeout: 180_000 }, () => {
  it('moves them exactly (the request, or the table stream when it runs out of time), and an unmerge takes them back', async () => {
    const { id: source } = (await createIdea(ws)).body.data;
    const { id: target } = (await createIdea(ws)).body.data;
    const refs = Array.from({ length: 10_000 }, (_, i) => seededRef(`s${i}`));
    await seedVotes(ws.slug, source, refs);
    // 500 of them voted on the target too, beside 200 of its own.
    await seedVotes(ws.slug, target, [...refs.slice(0, 500), ...Array.from({ length: 200 }, (_, i) => seededRef(`t${i}`))]);
    expect([(await ideaOf(source)).voteCount, (await ideaOf(target)).voteCount]).toEqual([10_000, 700]);

    await merge(source, target);
    expect((await ideaOf(target)).voteCount).toBe(10_200);
    expect((await api.get(`/ideas/${target}/votes?limit=1`)).body.pagination.total).toBe(10_200);
    await unmerge(source);
    expect([(await ideaOf(source)).voteCount, (await ideaOf(target)).voteCount]).toEqual([10_000, 700]);
  }, 600_000);
});
