/**
 * POST an article: the content is checked and encoded before anything is read; then one
 * transaction (a generated slug is the first free one, 1 Query, tried again when a concurrent
 * create takes it). With an Idempotency-Key only the new id is remembered: a replay answers with
 * that article's draft as it is now (404 once deleted).
 */
import { randomUUID } from 'node:crypto';
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import type { Language } from '../blocks.ts';
import { headerOfWrite, prepareContent } from '../draft-content.ts';
import { articleNotFound, slugTaken } from '../errors.ts';
import { type ArticleItem, headerOf, toArticle } from '../record.ts';
import type { Article, ArticleCreate } from '../schemas.ts';
import { firstFreeSlug, slugBase } from '../slugs.ts';
import { insertArticle } from '../store/article-lifecycle.ts';
import { findArticle } from '../store/articles.ts';
import { takenArticleSlugs } from '../store/slug-claims.ts';

/** Attempts at a generated slug when a concurrent create takes the one chosen. */
const SLUG_ATTEMPTS = 4;

export async function createArticle(
  workspace: string,
  body: ArticleCreate,
  idempotency: IdempotentRequest | undefined,
): Promise<{ article: Article; replayed: boolean }> {
  const source: Language = body.sourceLanguage ?? (body.titleEn ? 'en' : body.titleAr ? 'ar' : 'en');
  const prepared = prepareContent(headerOfWrite(body), body.blocks ?? [], source, undefined);
  const id = randomUUID();
  const now = new Date().toISOString();
  const base = slugBase({ en: body.titleEn, ar: body.titleAr }, source, 'article');
  for (let attempt = 1; ; attempt++) {
    const slug = body.slug ?? firstFreeSlug(base, await takenArticleSlugs(workspace, base));
    const item: ArticleItem = {
      id,
      categoryId: body.categoryId,
      slug,
      sourceLanguage: source,
      status: 'draft',
      visibility: body.visibility ?? 'public',
      tags: [...new Set(body.tags ?? [])],
      draft: headerOf(prepared.content),
      live: null,
      latestRevision: 0,
      liveRevision: null,
      hasUnpublishedChanges: true,
      translations: prepared.translations,
      version: 1,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
    };
    const written = await insertArticle(workspace, item, prepared, idempotency);
    if (written === 'slug_taken') {
      if (!body.slug && attempt < SLUG_ATTEMPTS) continue; // a concurrent create took it
      throw slugTaken('article');
    }
    if (!written.replayed) return { article: toArticle(item, prepared.content, 'draft'), replayed: false };
    return { article: await articleNamed(workspace, written.articleId), replayed: true };
  }
}

/** A replay's answer: the article its remembered response names, its draft as it is now (404 once deleted). */
export async function createdArticle(workspace: string, remembered: unknown): Promise<Article> {
  return articleNamed(workspace, (remembered as { articleId: string }).articleId);
}

async function articleNamed(workspace: string, articleId: string): Promise<Article> {
  const article = await findArticle(workspace, articleId, 'draft');
  if (!article) throw articleNotFound();
  return toArticle(article.item, article.content, 'draft');
}
