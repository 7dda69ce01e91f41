/** Unpublish: take the article offline, keeping its draft and history. 1 BatchGet + 1 transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { articleNotFound, notPublished } from '../errors.ts';
import { type ArticleWithDigest, toArticle } from '../record.ts';
import type { Article } from '../schemas.ts';
import { readUnpublishState, writeUnpublication } from '../store/publishing.ts';

export async function unpublishArticle(workspace: string, articleId: string, precondition: VersionPrecondition): Promise<Article> {
  const state = await readUnpublishState(workspace, articleId, precondition);
  const { meta, draft } = state;
  if (meta.status !== 'published') throw notPublished();
  const next: ArticleWithDigest = {
    ...meta,
    status: 'unpublished',
    liveRevision: null,
    version: meta.version + 1,
    updatedAt: new Date().toISOString(),
  };
  await writeUnpublication(workspace, state, next);
  if (!draft) throw articleNotFound();
  return toArticle(next, draft, 'draft');
}
