/**
 * Filters and pages of the article lists, over metadata items read in one Query. Pure, so the
 * filter rules (what a read-only key sees, which translation statuses match) are unit-tested.
 */
import type { PageKey, PageStart } from '../platform/pagination.ts';
import type { Language } from './blocks.ts';
import type { ArticleItem, ArticleStatus } from './record.ts';
import type { ArticleTranslations } from './translation.ts';

export interface Page<T> {
  items: T[];
  total: number;
  hasMore: boolean;
  /** Where a cursor continues: the order's key (`createdAt`, `id`) of the page's last item. */
  lastKey: PageKey | undefined;
  returned: number;
}

type Ordered = Pick<ArticleItem, 'createdAt' | 'id'>;

/**
 * A page of items in `newestFirst` order, by offset or after a cursor's item. The cursor holds the
 * last item's place in the order, not its index, so articles created or deleted between two pages
 * neither repeat nor skip one (the list is read whole anyway: a cursor saves no reads here).
 */
export function pageOf<T extends Ordered>(items: readonly T[], { limit, offset, after }: PageStart): Page<T> {
  let start = offset;
  if (after) {
    if (typeof after.createdAt !== 'string' || typeof after.id !== 'string')
      throw new Error('A cursor for articles named no place in their order');
    const previous = { createdAt: after.createdAt, id: after.id };
    const next = items.findIndex((item) => newestFirst(item, previous) > 0);
    start = next === -1 ? items.length : next;
  }
  const shown = items.slice(start, start + limit);
  const last = shown.at(-1);
  return {
    items: shown,
    total: items.length,
    hasMore: start + limit < items.length,
    lastKey: last && { createdAt: last.createdAt, id: last.id },
    returned: shown.length,
  };
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
