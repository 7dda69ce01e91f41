/**
 * Filters and pages of the knowledge bank's lists (articles, translations, external links), over
 * items read whole in one Query. Pure, so the filter rules (what a read-only key sees, which
 * translation statuses match) and the paging are unit-tested.
 */
import { type PageStart, pageOfSorted, type StorePage } from '../platform/pagination.ts';
import type { Language } from './blocks.ts';
import type { ArticleItem, ArticleStatus } from './record.ts';
import type { ArticleTranslations } from './translation.ts';

/** A page of a list read whole and sorted in memory (lib/platform/pagination.ts: pageOfSorted). */
export type Page<T> = StorePage & { items: T[]; total: number };

type Ordered = Pick<ArticleItem, 'createdAt' | 'id'>;

/**
 * A page of items in `newestFirst` order. The cursor holds the last item's place in the order
 * (`createdAt`, `id`), not its index, so articles created or deleted between two pages neither
 * repeat nor skip one (the list is read whole anyway: a cursor saves no reads here).
 */
export function pageOf<T extends Ordered>(items: readonly T[], start: PageStart): Page<T> {
  const { after } = start;
  if (after && (typeof after.createdAt !== 'string' || typeof after.id !== 'string'))
    throw new Error('A cursor for articles named no place in their order');
  return pageOfSorted(items, start, {
    keyOf: (item) => ({ createdAt: item.createdAt, id: item.id }),
    follows: (item, place) => newestFirst(item, { createdAt: String(place.createdAt), id: String(place.id) }) > 0,
  });
}

/** Newest first; the id breaks ties so the order is stable across pages. */
export function newestFirst(a: Ordered, b: Ordered): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
}

export interface ArticleFilter {
  categoryId?: string;
  status?: ArticleStatus;
  tag?: string;
  visibility?: 'public' | 'internal';
  /** Read-only keys: published articles only. */
  liveOnly: boolean;
}

export function matchesArticleFilter(item: ArticleItem, filter: ArticleFilter): boolean {
  if (filter.liveOnly && item.status !== 'published') return false;
  if (filter.categoryId && item.categoryId !== filter.categoryId) return false;
  if (filter.status && item.status !== filter.status) return false;
  if (filter.visibility && item.visibility !== filter.visibility) return false;
  if (filter.tag && !(item.tags ?? []).includes(filter.tag)) return false;
  return true;
}

export interface TranslationFilter {
  locale?: Language;
  status?: 'missing' | 'partial' | 'outdated';
}

/**
 * `locale` + `status`: that status in that locale. `status` alone: in either locale. `locale`
 * alone: anything short of complete in it. Neither: every article (the overview).
 */
export function matchesTranslationFilter(translations: ArticleTranslations, { locale, status }: TranslationFilter): boolean {
  const locales: Language[] = locale ? [locale] : ['en', 'ar'];
  if (status) return locales.some((l) => translations[l] === status);
  if (locale) return translations[locale] !== 'complete';
  return true;
}

/** A page as a list answers it: its items, the total, where it starts and the cursor to continue from. */
export type ListedPage<T> = Omit<Page<T>, 'lastKey' | 'returned'> & { offset: number; nextCursor: string | null };
