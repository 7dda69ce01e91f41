/**
 * DELETE an article: refused while published articles link here, unless forced. A BatchGet beside
 * a Query of its live backlinks, 1 transaction, then its content and backlink items in batches.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { articleLinked } from '../errors.ts';
import { readArticleToDelete, removeArticle } from '../store/article-lifecycle.ts';

export async function deleteArticle(
  workspace: string,
  articleId: string,
  options: { force: boolean; precondition: VersionPrecondition },
): Promise<void> {
  const found = await readArticleToDelete(workspace, articleId, options.precondition);
  // A link of the article to itself does not keep it.
  const linkedFrom = found.liveLinkSources.filter((source) => source !== articleId);
  if (linkedFrom.length > 0 && !options.force) throw articleLinked(linkedFrom);
  await removeArticle(workspace, found);
}
