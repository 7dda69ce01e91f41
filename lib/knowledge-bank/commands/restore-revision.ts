/** Restore: a published revision becomes the draft, as it was published. 1 BatchGet + 1 transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { draftedArticle, restoredContent, withCheckResults } from '../draft-content.ts';
import { toArticle } from '../record.ts';
import type { Article } from '../schemas.ts';
import { readRevisionToRestore, writeDraft } from '../store/drafts.ts';

export async function restoreRevision(
  workspace: string,
  articleId: string,
  revision: number,
  precondition: VersionPrecondition,
): Promise<Article> {
  const { meta, content, bytes, draftLinks } = await readRevisionToRestore(workspace, articleId, revision, precondition);
  const restored = restoredContent(content, bytes, meta.sourceLanguage);
  const next = draftedArticle(meta, restored, new Date().toISOString());
  await writeDraft(workspace, meta, next, { bytes, links: withCheckResults(restored.links, draftLinks) }, draftLinks);
  return toArticle(next, content, 'draft');
}
