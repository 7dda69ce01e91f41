/**
 * Turning the index's hits into the response's results with the live content of the page of
 * results (read in one BatchGet, display-content.ts): the title and the snippet come from the text
 * a reader can open now, not from a copy inside the index.
 *
 * The title rule: the title in the language the article matched in (that of `locale` when it is
 * given), so a result's title and its snippet are in one language; an article with no title in that
 * language shows its source language's title (then any title, then its slug).
 */
import { bodyText, type LiveContent, summaryIn, titleIn } from './documents.ts';
import type { SearchHit } from './search-index.ts';
import { type Snippet, snippetOf } from './snippets.ts';

export interface SearchResultView {
  articleId: string;
  slug: string;
  title: string;
  categoryId: string;
  score: number;
  snippet: Snippet;
}

function resultOf(hit: SearchHit, content: LiveContent): SearchResultView {
  const title = titleIn(content, hit.locale) || titleIn(content, hit.sourceLanguage) || content.titleEn || content.titleAr || hit.slug;
  const text = [summaryIn(content, hit.locale), bodyText(content.blocks, hit.locale)].filter(Boolean).join('\n');
  return {
    articleId: hit.articleId,
    slug: hit.slug,
    title,
    categoryId: hit.categoryId,
    score: Math.round(hit.score * 1000) / 1000,
    snippet: snippetOf(text, new Set(hit.terms)),
  };
}

/**
 * The results of a page of hits. A hit whose live content is gone (unpublished or deleted after the
 * index the instance holds was written) is left out: search never shows what a reader cannot open.
 */
export function resultsOf(hits: readonly SearchHit[], contents: ReadonlyMap<string, LiveContent>): SearchResultView[] {
  return hits.flatMap((hit) => {
    const content = contents.get(hit.articleId);
    return content ? [resultOf(hit, content)] : [];
  });
}
