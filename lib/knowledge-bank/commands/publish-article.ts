/**
 * Publish: 1 BatchGet of the article, 1 BatchGet of what its links point at (for the publish
 * rules), 1 transaction. Publishing an article with nothing new changes nothing.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { publication, withCheckResults } from '../draft-content.ts';
import { publishRefusal } from '../errors.ts';
import { extractLinks, internalTargets } from '../links.ts';
import { checkPublishable } from '../publish.ts';
import { toArticle } from '../record.ts';
import type { Article } from '../schemas.ts';
import { linkTargetStates } from '../store/links.ts';
import { readPublishState, writePublication } from '../store/publishing.ts';

export async function publishArticle(
  workspace: string,
  articleId: string,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Article> {
  const state = await readPublishState(workspace, articleId, precondition);
  const { meta, content } = state;
  if (meta.status === 'published' && !meta.hasUnpublishedChanges) return toArticle(meta, content, 'draft');
  const links = extractLinks(content.blocks);
  const check = checkPublishable(meta, content, links, await linkTargetStates(workspace, internalTargets(links)));
  if (!check.ok) throw publishRefusal(check);
  const published = publication(meta, content, new Date().toISOString());
  await writePublication(workspace, state, published, withCheckResults(links, state.draftLinks), keyId);
  return toArticle(published.next, content, 'draft');
}
