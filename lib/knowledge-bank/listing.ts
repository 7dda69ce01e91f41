/**
 * Filters and pages of the article lists, over metadata items read in one Query. Pure, so the
 * filter rules (what a read-only key sees, which translation statuses match) are unit-tested.
 */
import type { Language } from './blocks.ts';
import type { ArticleItem, ArticleStatus } from './record.ts';
import type { ArticleTranslations } from './translation.ts';

export interface Page<T> {
  items: T[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

export function pageOf<T>(items: readonly T[], { limit, offset }: { limit: number; offset: number }): Page<T> {
  return {
    items: items.slice(offset, offset + limit),
    pagination: { limit, offset, total: items.length, hasMore: offset + limit < items.length },
  };
}

/** Newest first; the id breaks ties so the order is stable across pages. */
export function newestFirst(a: ArticleItem, b: ArticleItem): number {
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
