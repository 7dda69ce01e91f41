/** Builders for the votes, comments and merge tests: votes cast through the API, and waiting for the ranks the table stream writes. */
import { clientFor, type TestWorkspace } from './fixtures.ts';

/** `count` distinct customers vote for the idea, `parallel` at a time; answers their e-mails. */
export async function castVotes(ws: TestWorkspace, ideaId: string, count: number, options: { prefix?: string; parallel?: number } = {}) {
  const api = clientFor(ws);
  const emails = Array.from({ length: count }, (_, i) => `${options.prefix ?? `voter-${ideaId.slice(-6)}`}-${i}@example.com`);
  const parallel = options.parallel ?? 4;
  for (let i = 0; i < emails.length; i += parallel) {
    await Promise.all(
      emails.slice(i, i + parallel).map(async (email) => {
        const res = await api.post(`/ideas/${ideaId}/votes`, { body: { voter: { email } } });
        if (res.status !== 201) throw new Error(`A vote answered ${res.status}: ${res.text}`);
      }),
    );
  }
  return emails;
}

/** The ids of the workspace's ideas in the order `sort` lists them (one page of 100). */
export async function rankedIds(ws: TestWorkspace, sort: string, query = ''): Promise<string[]> {
  const res = await clientFor(ws).get(`/ideas?sort=${sort}&limit=100${query}`);
  if (res.status !== 200) throw new Error(`GET /ideas?sort=${sort} answered ${res.status}: ${res.text}`);
  return res.body.data.map((idea: { id: string }) => idea.id);
}

/**
 * Until the list by votes shows each idea where its count puts it: the table stream's fold writes the
 * ranks about a second after the votes (60 s at most, then the test fails saying what it saw).
 */
export async function waitForRanks(ws: TestWorkspace, ideas: { id: string; votes: number }[]): Promise<void> {
  const expected = [...ideas].sort((a, b) => b.votes - a.votes || (a.id < b.id ? 1 : -1)).map((idea) => idea.id);
  const deadline = Date.now() + 60_000;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    seen = (await rankedIds(ws, '-votes')).filter((id) => expected.includes(id));
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The list by votes never showed ${expected.join(', ')}; it showed ${seen.join(', ')}`);
}
