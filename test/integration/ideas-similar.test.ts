/**
 * GET /ideas/similar and POST /ideas `possibleDuplicates` over the real sandbox: English and Arabic
 * paraphrases find their idea, another workspace's ideas never appear, a deleted idea is never
 * answered, bad queries are clear 400s, and the round trips are what docs/latency.md says.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, clientFor, dynamoDbCalls, dynamoDbDepth, expectErrorEnvelope, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, ideasWorkspace, insideOneRateLimitWindow } from '../support/ideas.ts';

interface Match {
  idea: { id: string; title: string };
  score: number;
  matchedTerms: string[];
}

let ws: TestWorkspace;
let other: TestWorkspace;
const ids: Record<string, string> = {};

const similar = async (workspace: TestWorkspace, q: string, limit?: number): Promise<Match[]> => {
  const res = await clientFor(workspace).get(`/ideas/similar?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Match[];
};

beforeAll(async () => {
  [ws, other] = await Promise.all([ideasWorkspace('ideas-similar'), ideasWorkspace('ideas-similar-other')]);
  const ideas = {
    invoices: { title: 'Export invoices to CSV', description: 'Finance wants every invoice of a month in one file.' },
    darkMode: { title: 'Dark mode for the customer portal' },
    arabic: { title: 'Arabic invoices', titleAr: 'تصدير الفواتير الشهرية إلى ملف إكسل' },
    slack: { title: 'Slack notifications for new tickets' },
  };
  for (const [name, body] of Object.entries(ideas)) ids[name] = (await createIdea(ws, body)).body.data.id;
  // The same words in another workspace: never an answer in the first one.
  ids.elsewhere = (await createIdea(other, { title: 'Export invoices to CSV' })).body.data.id;
});

describe('GET /ideas/similar', () => {
  it('answers the idea an English paraphrase asks for first, with a score and the words it shares', async () => {
    const [best, ...rest] = await similar(ws, 'Download the monthly invoice list as a CSV export');
    expect(best).toMatchObject({ idea: { id: ids.invoices, title: 'Export invoices to CSV' } });
    expect(best!.matchedTerms).toEqual(expect.arrayContaining(['invoice', 'csv', 'export']));
    expect(best!.score).toBeGreaterThan(0.3);
    expect(best!.score).toBeLessThanOrEqual(1);
    for (const match of rest) expect(match.score).toBeLessThanOrEqual(best!.score);
  });

  it('finds an idea by an Arabic paraphrase, however the alef and the article are written', async () => {
    const [best] = await similar(ws, 'أريد تنزيل فواتير الشهر في ملف اكسل');
    expect(best).toMatchObject({ idea: { id: ids.arabic } });
    expect(best!.matchedTerms).toEqual(expect.arrayContaining(['فواتير', 'ملف', 'اكسل']));
  });

  it("never answers another workspace's ideas, even word for word", async () => {
    const mine = await similar(ws, 'Export invoices to CSV', 25);
    expect(mine.map((match) => match.idea.id)).not.toContain(ids.elsewhere);
    const theirs = await similar(other, 'Export invoices to CSV', 25);
    expect(theirs.map((match) => match.idea.id)).toEqual([ids.elsewhere]);
  });

  it('answers a new idea at once and a deleted one never again', async () => {
    const created = (await createIdea(ws, { title: 'Keyboard shortcuts in the inbox' })).body.data.id as string;
    expect((await similar(ws, 'shortcut keys for the inbox')).map((match) => match.idea.id)).toEqual([created]);
    expect((await clientFor(ws).delete(`/ideas/${created}`)).status).toBe(200);
    expect(await similar(ws, 'shortcut keys for the inbox')).toEqual([]);
  });

  it('answers nothing for a text sharing no word with any idea, and at most `limit`', async () => {
    expect(await similar(ws, 'the of and zzzz')).toEqual([]);
    expect(await similar(ws, 'invoices portal tickets', 1)).toHaveLength(1);
  });

  it.each([
    ['no q', ''],
    ['a blank q', '?q=%20%20'],
    ['a q over 1,000 characters', `?q=${'a'.repeat(1001)}`],
    ['limit 0', '?q=invoices&limit=0'],
    ['limit 26', '?q=invoices&limit=26'],
    ['an unknown parameter', '?q=invoices&text=invoices'],
  ])('answers 400 invalid_query for %s', async (_, query) => {
    expectErrorEnvelope(await clientFor(ws).get(`/ideas/similar${query}`), 400, 'invalid_query');
  });

  it('costs one Query and one BatchGetItem after authorisation, in sequence (docs/latency.md)', async () => {
    await similar(ws, 'invoices');
    await insideOneRateLimitWindow(ws);
    const res: ApiResponse = await clientFor(ws).get('/ideas/similar?q=invoices');
    expect(res.status).toBe(200);
    expect(dynamoDbCalls(res)).toBe(5);
    expect(dynamoDbDepth(res)).toBe(3);
  });
});

describe('POST /ideas possibleDuplicates', () => {
  it('answers the existing ideas most like the new one, best first, never the new idea itself', async () => {
    const res = await clientFor(ws).post('/ideas', { body: { title: 'Dark theme for the portal', description: 'A dark mode please' } });
    expect(res.status).toBe(201);
    const duplicates = res.body.possibleDuplicates as Match[];
    expect(duplicates[0]).toMatchObject({ idea: { id: ids.darkMode } });
    expect(duplicates.map((match) => match.idea.id)).not.toContain(res.body.data.id);
    expect(duplicates.length).toBeLessThanOrEqual(3);
  });

  it('answers none for an idea like no other, and the same duplicates again on a replay', async () => {
    const lonely = await clientFor(ws).post('/ideas', { body: { title: 'Zebra stripes' } });
    expect(lonely.body.possibleDuplicates).toEqual([]);
    const body = { title: 'Notifications in Slack when tickets arrive' };
    const headers = { 'Idempotency-Key': `similar-${ids.slack}` };
    const first = await clientFor(ws).post('/ideas', { body, headers });
    const replay = await clientFor(ws).post('/ideas', { body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.body.possibleDuplicates[0]).toMatchObject({ idea: { id: ids.slack } });
    // Looked up again, not remembered: the same ideas, scored against the workspace as it is now (the new idea counts).
    const idsOf = (res: ApiResponse) => (res.body.possibleDuplicates as Match[]).map((match) => match.idea.id);
    expect(idsOf(replay)).toEqual(idsOf(first));
  });
});
