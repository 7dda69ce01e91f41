/**
 * The bench scenarios of votes, comments, sorting by votes, and merge (issue 39). Each sets up its
 * workspace through the API, as a client would; docs/ideas.md ("Measured") states their figures.
 */
import type { Sandbox } from '../local/sandbox.ts';
import { benchWorkspace, type BenchContext as Context, type Scenario, send } from './harness.ts';

const ideasWorkspace = (sandbox: Sandbox) => benchWorkspace(sandbox, 'ideas');

async function createIdea(context: Context, title: string): Promise<string> {
  const res = await send(context, 'POST', '/ideas', { title, description: 'Benchmark idea' });
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function vote(context: Context, ideaId: string, voter: string): Promise<Response> {
  const res = await send(context, 'POST', `/ideas/${ideaId}/votes`, { voter: { email: `${voter}@example.com` }, importance: 'important' });
  if (res.status !== 201 && res.status !== 200) throw new Error(`A bench vote answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return res;
}

/** An idea with `votes` voters (`data.ideaId`). */
async function withVotes(sandbox: Sandbox, votes: number): Promise<Context> {
  const context = await ideasWorkspace(sandbox);
  context.data.ideaId = await createIdea(context, 'Offline mode');
  for (let i = 0; i < votes; i++) await vote(context, context.data.ideaId, `voter-${i}`);
  return context;
}

/** An idea with `comments` public comments (`data.ideaId`). */
async function withComments(sandbox: Sandbox, comments: number): Promise<Context> {
  const context = await ideasWorkspace(sandbox);
  context.data.ideaId = await createIdea(context, 'Offline mode');
  for (let i = 0; i < comments; i++) {
    const res = await send(context, 'POST', `/ideas/${context.data.ideaId}/comments`, {
      body: `We need it on the train, comment ${i}`,
      author: { externalId: `crm-${i}`, name: `Customer ${i}` },
    });
    await res.arrayBuffer();
  }
  return context;
}

/** 100 ideas, the i-th with i % 5 voters, so the list by votes has something to order. */
async function withVotedIdeas(sandbox: Sandbox): Promise<Context> {
  const context = await ideasWorkspace(sandbox);
  for (let i = 0; i < 100; i++) {
    const id = await createIdea(context, `Idea ${i}`);
    for (let v = 0; v < i % 5; v++) await vote(context, id, `voter-${v}`);
  }
  return context;
}

/**
 * A duplicate (`data.ideaId`) and the idea it is merged into (`data.intoId`), 100 voters each, 50 of
 * them on both: a merge moves 100 votes, 50 of them onto votes the target already has.
 */
async function withDuplicate(sandbox: Sandbox): Promise<Context> {
  const context = await ideasWorkspace(sandbox);
  context.data.intoId = await createIdea(context, 'Offline mode');
  context.data.ideaId = await createIdea(context, 'Use the app without a connection');
  for (let i = 0; i < 100; i++) {
    await vote(context, context.data.ideaId, `voter-${i}`);
    await vote(context, context.data.intoId, `voter-${i + 50}`);
  }
  context.data.etag = '"1"';
  return context;
}

let voters = 0;

export const ideaScenarios: Scenario[] = [
  {
    name: 'POST /ideas/{id}/votes (a new voter)',
    setup: (s) => withVotes(s, 0),
    request: (c) => send(c, 'POST', `/ideas/${c.data.ideaId}/votes`, { voter: { email: `new-${++voters}@example.com` } }),
  },
  {
    name: 'POST /ideas/{id}/votes (the same voter again: 200)',
    setup: (s) => withVotes(s, 1),
    request: (c) => send(c, 'POST', `/ideas/${c.data.ideaId}/votes`, { voter: { email: 'voter-0@example.com' }, importance: 'critical' }),
  },
  {
    name: 'GET /ideas/{id}/votes (100 votes, first page)',
    setup: (s) => withVotes(s, 100),
    request: (c) => send(c, 'GET', `/ideas/${c.data.ideaId}/votes`),
  },
  { name: 'GET /ideas?sort=-votes (100 ideas, first page)', setup: withVotedIdeas, request: (c) => send(c, 'GET', '/ideas?sort=-votes') },
  {
    name: 'GET /ideas?sort=trending (100 ideas, first page)',
    setup: withVotedIdeas,
    request: (c) => send(c, 'GET', '/ideas?sort=trending'),
  },
  {
    name: 'POST /ideas/{id}/comments',
    setup: (s) => withComments(s, 0),
    request: (c) =>
      send(c, 'POST', `/ideas/${c.data.ideaId}/comments`, {
        body: 'Please, for the night shift',
        author: { externalId: 'crm-1', name: 'Ann' },
      }),
  },
  {
    name: 'GET /ideas/{id}/comments (100 comments, first page)',
    setup: (s) => withComments(s, 100),
    request: (c) => send(c, 'GET', `/ideas/${c.data.ideaId}/comments`),
  },
  {
    name: 'POST /ideas/{id}/merge (100 votes, 50 shared; each undone after, untimed)',
    setup: withDuplicate,
    request: async (c) => {
      const res = await send(c, 'POST', `/ideas/${c.data.ideaId}/merge`, { into: c.data.intoId }, { 'If-Match': c.data.etag! });
      if (res.status !== 200) throw new Error(`The bench merge answered ${res.status}: ${await res.clone().text()}`);
      c.data.etag = res.headers.get('etag')!;
      return res;
    },
    reset: async (c) => {
      const res = await send(c, 'POST', `/ideas/${c.data.ideaId}/unmerge`, undefined, { 'If-Match': c.data.etag! });
      if (res.status !== 200) throw new Error(`The bench unmerge answered ${res.status}: ${await res.text()}`);
      c.data.etag = res.headers.get('etag')!;
      await res.arrayBuffer();
    },
  },
];
