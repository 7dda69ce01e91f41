/**
 * Filters and pages of the article lists, over metadata items read in one Query. Pure, so the
 * filter rules (what a read-only key sees, which translation statuses match) are unit-tested.
 */
import { type PageStart, pageOfSorted } from '../platform/pagination.ts';
import type { Language } from './blocks.ts';
import type { ArticleItem, ArticleStatus } from './record.ts';
import type { ArticleTranslations } from './translation.ts';

type Ordered = Pick<ArticleItem, 'createdAt' | 'id'>;

/**
 * A page of items in `newestFirst` order, by offset or after a cursor's item. The cursor holds the
 * last item's place in the order, not its index, so articles created or deleted between two pages
 * neither repeat nor skip one (the list is read whole anyway: a cursor saves no reads here).
 */
export function pageOf<T extends Ordered>(items: readonly T[], start: PageStart) {
  return pageOfSorted(items, start, {
    keyOf: (item) => ({ createdAt: item.createdAt, id: item.id }),
    follows: (item, place) => {
      if (typeof place.createdAt !== 'string' || typeof place.id !== 'string') {
        throw new Error('A cursor for articles named no place in their order');
      }
      return newestFirst(item, { createdAt: place.createdAt, id: place.id }) > 0;
    },
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
