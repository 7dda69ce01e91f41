/**
 * Knowledge-bank items and their mapping to API records. Free of the client, so tests and tools
 * can use it. Article metadata (small) and content (compressed, up to 380 KB) are separate items,
 * so lists never read content.
 */
import type { Block, Language } from './blocks.ts';
import { decodeContent } from './content-codec.ts';
import type { ExtractedLink } from './links.ts';
import type { LinkTargetState } from './publish.ts';
import type { Article, ArticleSummary, Backlink, Category, Link, Revision, RevisionSummary } from './schemas.ts';
import {
  type ArticleTranslations,
  articleTranslations,
  blockTranslations,
  type TranslatableContent,
  type TranslationHashes,
} from './translation.ts';

export interface CategoryItem {
  id: string;
  parentId: string | null;
  nameEn: string | null;
  nameAr: string | null;
  descriptionEn: string | null;
  descriptionAr: string | null;
  slug: string;
  position: number;
  visibility: 'public' | 'internal';
  articleCount: number;
  /** Direct subcategories: a category that has any cannot be deleted. */
  childCount: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export function toCategory(item: Record<string, unknown>, depth: number): Category {
  const c = item as unknown as CategoryItem;
  return {
    id: c.id,
    parentId: c.parentId ?? null,
    depth,
    nameEn: c.nameEn ?? null,
    nameAr: c.nameAr ?? null,
    descriptionEn: c.descriptionEn ?? null,
    descriptionAr: c.descriptionAr ?? null,
    slug: c.slug,
    position: c.position,
    visibility: c.visibility,
    articleCount: Math.max(0, c.articleCount ?? 0),
    version: c.version,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export interface Header {
  titleEn: string | null;
  titleAr: string | null;
  summaryEn: string | null;
  summaryAr: string | null;
}

/** What the compressed content attribute holds. */
export interface StoredContent extends TranslatableContent {
  hashes: TranslationHashes;
}

export type ArticleStatus = 'draft' | 'published' | 'unpublished';

export interface ArticleItem {
  id: string;
  categoryId: string;
  slug: string;
  sourceLanguage: Language;
  status: ArticleStatus;
  visibility: 'public' | 'internal';
  tags: string[];
  /** The draft's titles and summaries (the list shows them to write keys). */
  draft: Header;
  /** The live revision's titles and summaries (what read-only keys see); null when never published. */
  live: Header | null;
  /** The highest revision number published so far (0 = none). */
  latestRevision: number;
  liveRevision: number | null;
  hasUnpublishedChanges: boolean;
  /** Of the draft (what translators work on). */
  translations: ArticleTranslations;
  /** Of the live revision, set on publish: what read-only keys are shown. */
  liveTranslations?: ArticleTranslations;
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

/** The metadata item as stored: an ArticleItem plus what only the store and the rules read. */
export interface ArticleWithDigest extends ArticleItem {
  /** contentDigest of the latest revision (absent before the first publish). */
  publishedDigest?: string;
}

export function headerOf(content: TranslatableContent): Header {
  return { titleEn: content.titleEn, titleAr: content.titleAr, summaryEn: content.summaryEn, summaryAr: content.summaryAr };
}

/** The titles and summaries of the view a key sees. */
export function headerFor(item: ArticleItem, view: 'draft' | 'live'): Header {
  return view === 'live' && item.live ? item.live : item.draft;
}

/** The translation rollup of the view a key sees. */
export function translationsFor(item: ArticleItem, view: 'draft' | 'live'): ArticleTranslations {
  return view === 'live' ? (item.liveTranslations ?? item.translations) : item.translations;
}

export function toArticleSummary(item: ArticleItem, view: 'draft' | 'live'): ArticleSummary {
  const header = headerFor(item, view);
  return {
    id: item.id,
    categoryId: item.categoryId,
    slug: item.slug,
    sourceLanguage: item.sourceLanguage,
    status: item.status,
    visibility: item.visibility,
    tags: item.tags ?? [],
    ...header,
    liveRevision: item.liveRevision ?? null,
    draftRevision: item.hasUnpublishedChanges ? item.latestRevision + 1 : Math.max(1, item.latestRevision),
    hasUnpublishedChanges: item.hasUnpublishedChanges,
    translations: translationsFor(item, view),
    version: item.version,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    publishedAt: item.publishedAt ?? null,
  };
}

/** Blocks as returned: each with the status of its translation into the non-source language. */
function outputBlocks(content: StoredContent, source: Language): Article['blocks'] {
  const statuses = blockTranslations(content, content.hashes, source);
  // The id first, so a block reads naturally in a response.
  return content.blocks.map(
    ({ id, ...rest }: Block) => ({ id, ...rest, translation: statuses[id] ?? 'missing' }) as Article['blocks'][number],
  );
}

export function toArticle(item: ArticleItem, content: StoredContent, view: 'draft' | 'live'): Article {
  return {
    ...toArticleSummary(item, view),
    ...headerOf(content),
    // Of the content shown: the live revision's statuses in the live view, the draft's otherwise.
    translations: articleTranslations(content, content.hashes, item.sourceLanguage),
    view,
    blocks: outputBlocks(content, item.sourceLanguage),
  };
}

export function contentOf(item: Record<string, unknown>): StoredContent {
  return decodeContent<StoredContent>(item.content as Uint8Array);
}

interface RevisionItem extends Header {
  revision: number;
  publishedAt: string;
  publishedBy: string;
}

export function toRevisionSummary(item: Record<string, unknown>): RevisionSummary {
  const r = item as unknown as RevisionItem;
  return {
    revision: r.revision,
    publishedAt: r.publishedAt,
    publishedBy: r.publishedBy,
    titleEn: r.titleEn ?? null,
    titleAr: r.titleAr ?? null,
    summaryEn: r.summaryEn ?? null,
    summaryAr: r.summaryAr ?? null,
  };
}

export function toRevision(item: Record<string, unknown>, source: Language): Revision {
  return { ...toRevisionSummary(item), blocks: outputBlocks(contentOf(item), source) };
}

/** A stored outgoing link: extracted, plus what the link checker (issue 13) records on it. */
export interface StoredLink extends ExtractedLink {
  status?: Link['status'];
  httpStatus?: number | null;
  checkedAt?: string | null;
}

export function storedLinksOf(item: Record<string, unknown> | undefined): StoredLink[] {
  return (item?.links as StoredLink[] | undefined) ?? [];
}

/** Link records as returned; internal links get their status from the targets just read. */
export function linkRecords(links: StoredLink[], targets: ReadonlyMap<string, LinkTargetState>): Link[] {
  return links.map((link) => {
    let status: Link['status'] = link.status ?? 'unchecked';
    if (link.kind === 'article' || link.kind === 'category') {
      const target = targets.get(link.target);
      status = !target || target.kind !== link.kind ? 'broken' : target.published ? 'ok' : 'unpublished';
    }
    return {
      id: link.id,
      blockId: link.blockId,
      kind: link.kind,
      target: link.target,
      ...(link.anchor ? { anchor: link.anchor } : {}),
      status,
      httpStatus: link.httpStatus ?? null,
      checkedAt: link.checkedAt ?? null,
    };
  });
}

/** One record per linking article, with where the link is (live, draft); drafts only for write keys. */
export function backlinkRecords(
  items: Array<{ sourceId: string; view: 'DRAFT' | 'LIVE' }>,
  { includeDrafts }: { includeDrafts: boolean },
): Backlink[] {
  const bySource = new Map<string, Set<'live' | 'draft'>>();
  for (const { sourceId, view } of items) {
    if (view === 'DRAFT' && !includeDrafts) continue;
    const views = bySource.get(sourceId) ?? new Set();
    views.add(view === 'LIVE' ? 'live' : 'draft');
    bySource.set(sourceId, views);
  }
  return [...bySource].map(([articleId, views]) => ({
    articleId,
    views: (['live', 'draft'] as const).filter((view) => views.has(view)),
  }));
}
