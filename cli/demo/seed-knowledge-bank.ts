/**
 * The demo's knowledge bank through the API: categories (a tree of two levels) and published
 * articles in both languages, found again by slug and compared with what the demo writes
 * (compare.ts: an article's live content, and that it has no unpublished draft). Links between
 * articles are written by slug in the data set and sent as article ids, so the backlinks and the
 * link rules of publishing apply.
 */
import type { DemoApi, Tally } from './api.ts';
import { ARTICLES, CATEGORIES, type DemoArticle, type DemoBlock } from './knowledge-bank-data.ts';

type Span = { text: string; link?: { href: string } | { articleSlug: string } };

function withArticleIds(blocks: DemoBlock[], idOf: (slug: string) => string): unknown[] {
  const spans = (list: Span[] | undefined) =>
    list?.map((span) => (span.link && 'articleSlug' in span.link ? { ...span, link: { articleId: idOf(span.link.articleSlug) } } : span));
  const text = (t: { en?: Span[]; ar?: Span[] }) => ({
    ...(t.en ? { en: spans(t.en) } : {}),
    ...(t.ar ? { ar: spans(t.ar) } : {}),
  });
  return blocks.map((block) => (block.type === 'list' ? { ...block, items: block.items.map(text) } : { ...block, text: text(block.text) }));
}

async function seedCategories(api: DemoApi, tally: Tally): Promise<Map<string, string>> {
  const current = (await api.get<{ categories: { id: string; slug: string }[] }>('/knowledge-bank/categories')).body.categories;
  const ids = new Map(current.map((c) => [c.slug, c.id]));
  let created = 0;
  // Parents come before their children in CATEGORIES.
  for (const { parentSlug, ...category } of CATEGORIES) {
    const parentId = parentSlug ? ids.get(parentSlug) : undefined;
    const found = current.find((c) => c.slug === category.slug);
    if (found) {
      tally.compare(`knowledge-bank category "${category.slug}"`, { ...category, parentId: parentId ?? null }, found);
      continue;
    }
    const { body } = await api.post<{ category: { id: string } }>('/knowledge-bank/categories', {
      ...category,
      ...(parentId ? { parentId } : {}),
    });
    ids.set(category.slug, body.category.id);
    created++;
  }
  tally.note('KB categories', created, CATEGORIES.length - created);
  return ids;
}

interface ArticleRecord {
  id: string;
  slug: string;
  liveRevision: number | null;
  hasUnpublishedChanges: boolean;
}

/**
 * An article found again: published, nothing unpublished in its draft, its live content the demo's.
 * One a failed run left unpublished is published now, when its draft is the demo's own.
 */
async function checkArticle(api: DemoApi, tally: Tally, record: ArticleRecord, expected: object): Promise<void> {
  const name = `knowledge-bank article "${record.slug}"`;
  if (record.liveRevision === null) {
    const { article } = (await api.get<{ article: unknown }>(`/knowledge-bank/articles/${record.id}`)).body;
    if (!tally.compare(name, expected, article)) return;
    await api.post(`/knowledge-bank/articles/${record.id}/publish`);
    tally.changed++;
    return;
  }
  const { article } = (await api.get<{ article: unknown }>(`/knowledge-bank/articles/${record.id}?view=live`)).body;
  tally.compare(name, { ...expected, status: 'published', hasUnpublishedChanges: false }, article);
}

function createBody(article: DemoArticle, categoryId: string, idOf: (slug: string) => string) {
  const { categorySlug: _, blocks, ...fields } = article;
  return { ...fields, categoryId, blocks: withArticleIds(blocks, idOf) };
}

export async function seedKnowledgeBank(api: DemoApi, tally: Tally): Promise<void> {
  const categories = await seedCategories(api, tally);
  const current = await api.listAll<ArticleRecord>('/knowledge-bank/articles', 'articles');
  const bySlug = new Map(current.map((a) => [a.slug, a]));
  const idOf = (slug: string) => {
    const found = bySlug.get(slug);
    if (!found) throw new Error(`The demo links to article ${slug} before creating it`);
    return found.id;
  };
  let created = 0;
  for (const article of ARTICLES) {
    const body = () => createBody(article, categories.get(article.categorySlug) as string, idOf);
    const found = bySlug.get(article.slug);
    if (found) {
      await checkArticle(api, tally, found, body());
      continue;
    }
    const { article: record } = (await api.post<{ article: ArticleRecord }>('/knowledge-bank/articles', body(), `article-${article.slug}`))
      .body;
    bySlug.set(article.slug, record);
    created++;
    await api.post(`/knowledge-bank/articles/${record.id}/publish`);
  }
  tally.note('KB articles', created, ARTICLES.length - created, 'published in English and Arabic');
}
