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
 * Snippets are cut from the stored text, which is capped so that the index object of a large
 * workspace stays a few megabytes; the whole body is indexed all the same.
 */
const SNIPPET_SOURCE_CHARS = 600;

export interface SearchDocument {
  /** `<articleId>:<locale>`: the index's own id. */
  id: string;
  articleId: string;
  locale: Language;
  slug: string;
  categoryId: string;
  visibility: 'public' | 'internal';
  /** The title in this locale, else in the article's source language: what a result shows. */
  displayTitle: string;
  title: string;
  summary: string;
  tags: string;
  body: string;
  /** The start of summary then body, for snippets (see SNIPPET_SOURCE_CHARS). */
  excerpt: string;
}

function titleIn(content: LiveContent, language: Language): string | null {
  return language === 'en' ? content.titleEn : content.titleAr;
}

function summaryIn(content: LiveContent, language: Language): string | null {
  return language === 'en' ? content.summaryEn : content.summaryAr;
}

function bodyText(blocks: readonly Block[], language: Language): string {
  return blocks
    .flatMap((block) => languageTextOf(block, language))
    .filter((part) => part.trim().length > 0)
    .join('\n');
}

export function documentId(articleId: string, locale: Language): string {
  return `${articleId}:${locale}`;
}

export function searchDocumentsOf(article: PublishedArticle, content: LiveContent): SearchDocument[] {
  const sourceTitle = titleIn(content, article.sourceLanguage) ?? content.titleEn ?? content.titleAr ?? article.slug;
  return LANGUAGES.map((locale) => {
    const title = titleIn(content, locale) ?? '';
    const summary = summaryIn(content, locale) ?? '';
    const body = bodyText(content.blocks, locale);
    return {
      id: documentId(article.id, locale),
      articleId: article.id,
      locale,
      slug: article.slug,
      categoryId: article.categoryId,
      visibility: article.visibility,
      displayTitle: title || sourceTitle,
      title,
      summary,
      tags: article.tags.join('\n'),
      body,
      excerpt: [summary, body].filter(Boolean).join('\n').slice(0, SNIPPET_SOURCE_CHARS),
    };
  });
}
