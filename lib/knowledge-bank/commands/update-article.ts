/** PATCH an article's metadata (category, tags, visibility, slug): 1 BatchGet + 1 transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { type ArticleItem, toArticle } from '../record.ts';
import type { Article, ArticlePatch } from '../schemas.ts';
import { readArticleToChange, writeArticleChange } from '../store/article-lifecycle.ts';

export async function updateArticle(
  workspace: string,
  articleId: string,
  patch: ArticlePatch,
  precondition: VersionPrecondition,
): Promise<Article> {
  // The draft is read with the metadata (one BatchGet) because the response shows it.
  const { meta: current, draft } = await readArticleToChange(workspace, articleId, precondition);
  const next: ArticleItem = {
    ...current,
    ...(patch.categoryId !== undefined ? { categoryId: patch.categoryId } : {}),
    ...(patch.tags !== undefined ? { tags: [...new Set(patch.tags)] } : {}),
    ...(patch.visibility !== undefined ? { visibility: patch.visibility } : {}),
    ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
    version: current.version + 1,
    updatedAt: new Date().toISOString(),
  };
  await writeArticleChange(workspace, current, next);
  return toArticle(next, draft, 'draft');
}
