/**
 * What of a published article goes into the search index: one document per language, so a search
 * in Arabic ranks Arabic text and answers with the Arabic title. Tags are indexed in both (they
 * match in any locale), so an article written only in English is still found by its tags from an
 * Arabic search. Code blocks and URLs are not words anyone searches for and are left out.
 */
import { type Block, LANGUAGES, type Language, languageTextOf } from '../blocks.ts';

/** What the index needs of an article's metadata item (a subset of ArticleItem). */
export interface PublishedArticle {
  id: string;
  slug: string;
  categoryId: string;
  visibility: 'public' | 'internal';
  sourceLanguage: Language;
  tags: readonly string[];
}

/** What the index needs of its live content. */
export interface LiveContent {
  titleEn: string | null;
  titleAr: string | null;
  summaryEn: string | null;
  summaryAr: string | null;
  blocks: readonly Block[];
}

/**
 * An index document: what ranking and filters need and nothing for display, so the index a search
 * function loads stays lean. Titles and snippets come from the live content of the page of results
 * (results.ts), read when a search answers.
 */
export interface SearchDocument {
  /** `<articleId>:<locale>`: the index's own id. */
  id: string;
  articleId: string;
  locale: Language;
  slug: string;
  categoryId: string;
  visibility: 'public' | 'internal';
  sourceLanguage: Language;
  title: string;
  summary: string;
  tags: string;
  body: string;
}

export function titleIn(content: LiveContent, language: Language): string | null {
  return language === 'en' ? content.titleEn : content.titleAr;
}

export function summaryIn(content: LiveContent, language: Language): string | null {
  return language === 'en' ? content.summaryEn : content.summaryAr;
}

export function bodyText(blocks: readonly Block[], language: Language): string {
  return blocks
    .flatMap((block) => languageTextOf(block, language))
    .filter((part) => part.trim().length > 0)
    .join('\n');
}

export function documentId(articleId: string, locale: Language): string {
  return `${articleId}:${locale}`;
}

export function searchDocumentsOf(article: PublishedArticle, content: LiveContent): SearchDocument[] {
  return LANGUAGES.map((locale) => ({
    id: documentId(article.id, locale),
    articleId: article.id,
    locale,
    slug: article.slug,
    categoryId: article.categoryId,
    visibility: article.visibility,
    sourceLanguage: article.sourceLanguage,
    title: titleIn(content, locale) ?? '',
    summary: summaryIn(content, locale) ?? '',
    tags: article.tags.join('\n'),
    body: bodyText(content.blocks, locale),
  }));
}
