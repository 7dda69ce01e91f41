/**
 * The capacity model's workloads beyond survey responses: authenticated requests through one key
 * (across a workspace's keys, with its budget: capacity-workloads-tenants.ts), the same knowledge-bank search again and again, an idea
 * event fanned out to 50 webhooks, and the writes people make (ideas, journeys, SOPs, articles),
 * whose ceilings today are held as their targets (they must not get worse).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DemoApi, Tally } from '../cli/demo/api.ts';
import { seedKnowledgeBank } from '../cli/demo/seed-knowledge-bank.ts';
import { keys } from '../lib/platform/data/keys.ts';
import { DELIVERY_SHARDS } from '../lib/webhooks/entities.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { type Caller, newCaller, type Workload } from './capacity-workloads.ts';

export const FAN_OUT = 'functions/table-stream/webhook-events-and-survey-summaries.ts';
export const DELIVERY = 'functions/webhooks/deliver-webhooks.ts';
const WEBHOOKS = 50;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const idOf = (body: Record<string, unknown>, ...path: string[]) =>
  path.reduce<unknown>((value, step) => (value as Record<string, unknown>)[step], body) as string;

export async function keyNames(sandbox: Sandbox, caller: Caller): Promise<Map<string, string>> {
  const { Items = [] } = await sandbox.store.db.send(
    new QueryCommand({
      TableName: sandbox.store.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(caller.slug), ':prefix': keys.developerKeyPrefix },
    }),
  );
  return new Map([[caller.slug, 'ws'], ...Items.map((item) => [item.id as string, 'keyId'] as [string, string])]);
}

/** `calls` times one request (the caller takes its keys in turn). */
function repeated(calls: number, request: (i: number) => Promise<unknown>) {
  return async () => {
    for (let i = 0; i < calls; i++) await request(i);
    return calls;
  };
}

export const authenticationWorkloads: Workload[] = [
  {
    id: 'one-key-requests',
    title: 'Authenticated requests through one key',
    call: 'GET /me with the same key',
    target: 1_000,
    targetNote: '1,000 (its own item: the documented cap)',
    async setup(sandbox) {
      const caller = await newCaller(sandbox, 'onekey', 1);
      await caller.settingUp('GET', '/me', 200);
      return { names: await keyNames(sandbox, caller), run: repeated(40, () => caller.json('GET', '/me', 200)) };
    },
  },
];

const SEARCH = '/knowledge-bank/search?q=reset%20password';

/**
 * Deterministic prose (a fixed seed) over a vocabulary of 3,000 made-up words, so the article compresses
 * about as real text does (brotli: to about 40 %), not as a repeated phrase would.
 */
let seed = 7919;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  // The high bits: a power-of-two LCG's low bits repeat with short periods.
  return seed >>> 8;
};
const VOCABULARY = Array.from({ length: 3_000 }, () =>
  Array.from({ length: 3 + (random() % 7) }, () => 'etaoinshrdlucmfwypvbgkjqxz'[random() % 26]).join(''),
);
const prose = (words: number) => Array.from({ length: words }, () => VOCABULARY[random() % VOCABULARY.length]).join(' ');

/** The popular article: the demo's password help, written out at length (40 paragraphs, about 24 KB of text). */
async function longPopularArticle(caller: Caller): Promise<string> {
  const { category } = await caller.settingUp<{ category: { id: string } }>('POST', '/knowledge-bank/categories', 201, {
    nameEn: 'Guides',
    nameAr: 'أدلة',
  });
  const blocks = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, type: 'paragraph', text: { en: [{ text: prose(90) }] } }));
  const { article } = await caller.settingUp<{ article: { id: string } }>('POST', '/knowledge-bank/articles', 201, {
    categoryId: category.id,
    titleEn: 'Reset your password: the complete guide',
    titleAr: 'إعادة تعيين كلمة المرور',
    blocks,
  });
  await caller.settingUp('POST', `/knowledge-bank/articles/${article.id}/publish`, 200);
  return article.id;
}

export const searchWorkload: Workload = {
  id: 'knowledge-bank-search',
  title: 'Knowledge-bank search, the same popular query',
  call: 'GET /knowledge-bank/search?q=reset password (the demo help centre and a 40-paragraph guide)',
  target: 3_000,
  async setup(sandbox) {
    const caller = await newCaller(sandbox, 'search');
    await seedKnowledgeBank(new DemoApi(sandbox.apiUrl, caller.slug, caller.host, caller.keys[0] as string), new Tally());
    const popular = await longPopularArticle(caller);
    // Searchable once the index builder has run on the stream (a few seconds).
    for (let attempt = 0; ; attempt++) {
      const { results } = await caller.settingUp<{ results: { articleId: string }[] }>('GET', SEARCH, 200);
      if (results.some((result) => result.articleId === popular)) break;
      if (attempt > 120) throw new Error('The demo help centre never became searchable');
      await wait(500);
    }
    const { articles } = await caller.settingUp<{ articles: { id: string }[] }>('GET', '/knowledge-bank/articles?limit=100', 200);
    const names = await keyNames(sandbox, caller);
    for (const article of articles) names.set(article.id, 'articleId');
    return { names, run: repeated(100, () => caller.json('GET', SEARCH, 200)) };
  },
};

/** A receiver that answers every delivery 204 and counts them. */
export async function receiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const webhookWorkload: Workload = {
  id: 'idea-event-to-50-webhooks',
  title: 'An idea event to 50 webhooks',
  call: 'one idea submitted: its event recorded and delivered to 50 webhooks (what the fan-out and the deliveries write)',
  // What idea creates can produce: the idea-create workload's ceiling (its counter, 2 units a create).
  target: 500,
  targetNote: '500 (what idea creates can make)',
  copies: () => new Map([['table WS#<ws> WHDELIVERY#<webhookId>#<shard>#<key>', DELIVERY_SHARDS]]),
  async setup(sandbox) {
    const caller = await newCaller(sandbox, 'webhooks', 1);
    const target = await receiver();
    const names = new Map([[caller.slug, 'ws']]);
    for (let i = 0; i < WEBHOOKS; i++) {
      const { webhook } = await caller.settingUp<{ webhook: { id: string } }>('POST', '/webhooks', 201, {
        name: `Capacity ${i}`,
        url: target.url,
        events: ['idea.submitted'],
      });
      await caller.settingUp('POST', `/webhooks/${webhook.id}/enable`, 200);
      names.set(webhook.id, 'webhookId');
    }
    const ideas = 8;
    return {
      names,
      counts: (handler) => handler === FAN_OUT || handler === DELIVERY,
      run: repeated(ideas, (i) => caller.json('POST', '/ideas', 201, { title: `Capacity idea ${i}`, status: 'new', module: 'general' })),
      async settle() {
        // Every delivery made and recorded: the receiver answered, and the delivery function wrote the outcome.
        const deadline = Date.now() + 600_000;
        for (;;) {
          const statuses = await deliveryStatuses(sandbox, caller.slug);
          if ((statuses.delivered ?? 0) >= ideas * WEBHOOKS) break;
          if (Date.now() > deadline) {
            throw new Error(`Deliveries not all made: ${JSON.stringify(statuses)}, ${target.received()} requests received`);
          }
          await wait(250);
        }
        await target.close();
      },
    };
  },
};

/** How many of the workspace's delivery records stand at each status. */
export async function deliveryStatuses(sandbox: Sandbox, slug: string): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let start: Record<string, unknown> | undefined;
  do {
    const page = await sandbox.store.db.send(
      new QueryCommand({
        TableName: sandbox.store.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': 'WHDELIVERY#' },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) statuses[item.status as string] = (statuses[item.status as string] ?? 0) + 1;
    start = page.LastEvaluatedKey;
  } while (start);
  return statuses;
}

const paragraph = (n: number) => `Paragraph ${n}: `.padEnd(300, "what a person writes in a working day, at a person's pace ");

/** Ceilings measured on main before issue 32 (bench:capacity, 2026-11): people's writes must not fall below them. */
export const personWorkloads: Workload[] = [
  {
    id: 'idea-create',
    title: 'People: submitting ideas',
    call: 'POST /ideas (a title and a 300-character description)',
    target: 500,
    async setup(sandbox) {
      const caller = await newCaller(sandbox, 'ideas', 1);
      await caller.settingUp('POST', '/ideas', 201, { title: 'Warm-up', status: 'new', module: 'general' });
      const body = (i: number) => ({ title: `Idea ${i}`, description: paragraph(i), status: 'new', module: 'general' });
      return { names: new Map([[caller.slug, 'ws']]), run: repeated(60, (i) => caller.json('POST', '/ideas', 201, body(i))) };
    },
  },
  {
    id: 'journey-save',
    title: 'People: saving a journey draft',
    call: 'PUT /journeys/{id}/versions/{versionId}/content (two stages, two rows)',
    target: 500,
    async setup(sandbox) {
      const caller = await newCaller(sandbox, 'journeys', 1);
      const created = await caller.settingUp<Record<string, unknown>>('POST', '/journeys', 200, {
        titleEn: 'Capacity journey',
        titleAr: 'رحلة',
      });
      const [journeyId, versionId] = [idOf(created, 'journeyId'), idOf(created, 'version', 'id')];
      const content = (i: number) => ({
        schema: 1,
        stages: [
          { id: 'discover', titleEn: `Discover ${i}`, titleAr: 'اكتشاف', microJourneyPairs: [] },
          { id: 'buy', titleEn: 'Buy', titleAr: 'شراء', microJourneyPairs: [] },
        ],
        rows: [{ id: 'feel', type: 'emotion', titleEn: 'Feeling', titleAr: 'شعور' }],
        cells: { 'feel:discover': { score: 1 }, 'feel:buy': { score: -1 } },
      });
      const path = `/journeys/${journeyId}/versions/${versionId}/content`;
      await caller.settingUp('PUT', path, 200, { content: content(0) }, { 'If-Match': '"1"' });
      return {
        names: new Map([
          [caller.slug, 'ws'],
          [journeyId, 'journeyId'],
          [versionId, 'versionId'],
        ]),
        run: repeated(40, (i) => caller.json('PUT', path, 200, { content: content(i + 1) }, { 'If-Match': `"${i + 2}"` })),
      };
    },
  },
  {
    id: 'sop-create',
    title: 'People: writing SOPs',
    call: 'POST /sops (an inquiry SOP of three steps)',
    target: 500,
    async setup(sandbox) {
      const caller = await newCaller(sandbox, 'sops', 1);
      const body = (i: number) => ({
        titleEn: `Answer an inquiry ${i}`,
        type: 'inquiry',
        steps: [{ titleEn: 'Read the question' }, { titleEn: 'Find the answer' }, { titleEn: 'Reply within a day' }],
      });
      await caller.settingUp('POST', '/sops', 200, body(-1));
      return { names: new Map([[caller.slug, 'ws']]), run: repeated(40, (i) => caller.json('POST', '/sops', 200, body(i))) };
    },
  },
  {
    id: 'article-draft-save',
    title: "People: saving an article's draft",
    call: 'PUT /knowledge-bank/articles/{id}/draft (three paragraphs)',
    target: 500,
    async setup(sandbox) {
      const caller = await newCaller(sandbox, 'articles', 1);
      const { category } = await caller.settingUp<{ category: { id: string } }>('POST', '/knowledge-bank/categories', 201, {
        nameEn: 'Capacity',
        nameAr: 'سعة',
      });
      const draft = (i: number) => ({
        titleEn: `Capacity article ${i}`,
        titleAr: 'مقالة',
        blocks: [1, 2, 3].map((n) => ({ id: `p${n}`, type: 'paragraph', text: { en: [{ text: paragraph(i * 3 + n) }] } })),
      });
      const { article } = await caller.settingUp<{ article: { id: string } }>('POST', '/knowledge-bank/articles', 201, {
        categoryId: category.id,
        ...draft(0),
      });
      const path = `/knowledge-bank/articles/${article.id}/draft`;
      let etag = '*';
      return {
        names: new Map([
          [caller.slug, 'ws'],
          [article.id, 'articleId'],
          [category.id, 'categoryId'],
        ]),
        run: repeated(40, async (i) => {
          const res = await caller.send('PUT', path, draft(i + 1), { 'If-Match': etag });
          if (res.status !== 200) throw new Error(`PUT ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
          await res.arrayBuffer();
          etag = res.headers.get('etag') ?? '*';
        }),
      };
    },
  },
];
