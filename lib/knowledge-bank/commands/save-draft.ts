/** PUT a draft: 1 BatchGet (404, If-Match, the previous draft for translation hashes), the content rules, 1 transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { draftedArticle, headerOfWrite, prepareContent, withCheckResults } from '../draft-content.ts';
import { toArticle } from '../record.ts';
import type { Article, DraftWrite } from '../schemas.ts';
import { readDraft, writeDraft } from '../store/drafts.ts';

export async function saveDraft(
  workspace: string,
  articleId: string,
  write: DraftWrite,
  precondition: VersionPrecondition,
): Promise<Article> {
  const { meta, draft, draftLinks } = await readDraft(workspace, articleId, precondition);
  const prepared = prepareContent(headerOfWrite(write), write.blocks ?? [], meta.sourceLanguage, draft);
  const next = draftedArticle(meta, prepared, new Date().toISOString());
  await writeDraft(workspace, meta, next, { bytes: prepared.bytes, links: withCheckResults(prepared.links, draftLinks) }, draftLinks);
  return toArticle(next, prepared.content, 'draft');
}
