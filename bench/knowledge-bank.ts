import type { Sandbox } from '../local/sandbox.ts';
import { benchWorkspace, type BenchContext as Context, type Scenario, send } from './harness.ts';

const kbWorkspace = (sandbox: Sandbox) => benchWorkspace(sandbox, 'kb');

async function created<T>(res: Promise<Response>, member: string): Promise<T> {
  const response = await res;
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`Bench setup failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as Record<string, T>)[member] as T;
}

/** `count` bilingual paragraphs, with stable ids so an edit keeps per-block translation status. */
function blocks(count: number, edit = ''): unknown[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `b${i}`,
    type: 'paragraph',
    text: {
      en: [{ text: `Step ${i}: open Billing, choose the invoice and pay it by card${edit}.` }],
      ar: [{ text: `الخطوة ${i}: افتح الفواتير واختر الفاتورة وادفعها بالبطاقة.` }],
    },
  }));
}

/** A workspace with one category; `data.articleId`: a published article of `blockCount` blocks. */
async function withArticle(sandbox: Sandbox, blockCount: number): Promise<Context> {
  const context = await kbWorkspace(sandbox);
  const category = await created<{ id: string }>(
    send(context, 'POST', '/knowledge-bank/categories', { nameEn: 'Billing', nameAr: 'الفواتير' }),
    'category',
  );
  context.data.categoryId = category.id;
  const article = await created<{ id: string }>(
    send(context, 'POST', '/knowledge-bank/articles', {
      categoryId: category.id,
      titleEn: 'Pay an invoice',
      titleAr: 'دفع فاتورة',
      blocks: blocks(blockCount),
    }),
    'article',
  );
  context.data.articleId = article.id;
  await created(send(context, 'POST', `/knowledge-bank/articles/${article.id}/publish`), 'article');
  return context;
}

/** Plus `count` more published articles, each linking to `data.articleId`. */
async function withLinkingArticles(sandbox: Sandbox, count: number): Promise<Context> {
  const context = await withArticle(sandbox, 20);
  for (let i = 0; i < count; i++) {
    const article = await created<{ id: string }>(
      send(context, 'POST', '/knowledge-bank/articles', {
        categoryId: context.data.categoryId,
        titleEn: `Related ${i}`,
        tags: [i % 2 ? 'cards' : 'bank'],
        blocks: [
          ...blocks(5),
          { type: 'paragraph', text: { en: [{ text: 'See how to pay', link: { articleId: context.data.articleId } }] } },
        ],
      }),
      'article',
    );
    await created(send(context, 'POST', `/knowledge-bank/articles/${article.id}/publish`), 'article');
  }
  return context;
}

export const knowledgeBankScenarios: Scenario[] = [
  { name: 'GET /knowledge-bank/categories', setup: (s) => withArticle(s, 1), request: (c) => send(c, 'GET', '/knowledge-bank/categories') },
  {
    name: 'POST /knowledge-bank/articles (20 blocks)',
    setup: (s) => withArticle(s, 1),
    request: (c) =>
      send(c, 'POST', '/knowledge-bank/articles', { categoryId: c.data.categoryId, titleEn: 'New article', blocks: blocks(20) }),
  },
  {
    name: 'GET /knowledge-bank/articles/{id} (draft, 200 blocks)',
    setup: (s) => withArticle(s, 200),
    request: (c) => send(c, 'GET', `/knowledge-bank/articles/${c.data.articleId}`),
  },
  {
    name: 'GET /knowledge-bank/articles/{id}?view=live (200 blocks)',
    setup: (s) => withArticle(s, 200),
    request: (c) => send(c, 'GET', `/knowledge-bank/articles/${c.data.articleId}?view=live`),
  },
  {
    name: 'PUT /knowledge-bank/articles/{id}/draft (200 blocks, English edit)',
    setup: (s) => withArticle(s, 200),
    request: (c) =>
      send(
        c,
        'PUT',
        `/knowledge-bank/articles/${c.data.articleId}/draft`,
        { titleEn: 'Pay an invoice', blocks: blocks(200, ` (${Date.now()})`) },
        { 'If-Match': '*' },
      ),
  },
  {
    name: 'GET /knowledge-bank/articles (100 articles, tag filter)',
    setup: (s) => withLinkingArticles(s, 100),
    request: (c) => send(c, 'GET', '/knowledge-bank/articles?tag=cards&limit=25'),
  },
  {
    name: 'GET /knowledge-bank/translations?locale=ar (100 articles)',
    setup: (s) => withLinkingArticles(s, 100),
    request: (c) => send(c, 'GET', '/knowledge-bank/translations?locale=ar'),
  },
  {
    name: 'GET /knowledge-bank/articles/{id}/backlinks (linked from 30)',
    setup: (s) => withLinkingArticles(s, 30),
    request: (c) => send(c, 'GET', `/knowledge-bank/articles/${c.data.articleId}/backlinks`),
  },
];
