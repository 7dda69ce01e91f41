/**
 * The demo's knowledge bank through the API: categories (a tree of two levels) and published
 * articles in both languages, found again by slug. Links between articles are written by slug in
 * the data set and sent as article ids, so the backlinks and the link rules of publishing apply.
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
    if (ids.has(category.slug)) continue;
    const parentId = parentSlug ? ids.get(parentSlug) : undefined;
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
    let record = bySlug.get(article.slug);
    if (!record) {
      const categoryId = categories.get(article.categorySlug) as string;
      const { body } = await api.post<{ article: ArticleRecord }>(
        '/knowledge-bank/articles',
        createBody(article, categoryId, idOf),
        `article-${article.slug}`,
      );
      record = body.article;
      bySlug.set(article.slug, record);
      created++;
    }
    // Published once; later edits someone made in the draft are theirs to publish.
    if (record.liveRevision === null) await api.post(`/knowledge-bank/articles/${record.id}/publish`);
  }
  tally.note('KB articles', created, ARTICLES.length - created, 'published in English and Arabic');
}
