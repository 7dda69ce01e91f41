/**
 * Drafts: the draft content item of an article, replaced by a PUT or by a restored revision, with
 * its links and backlinks: 1 BatchGet + 1 transaction.
 */

import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { contentDigest, prepareContent } from '../draft-content.ts';
import { type ExtractedLink, extractLinks, type InternalTarget, internalTargets } from '../links.ts';
import { type ArticleItem, contentOf, headerOf, type StoredContent, type StoredLink, storedLinksOf } from '../record.ts';
import type { DraftWrite } from '../schemas.ts';
import { articleTranslations } from '../translation.ts';
import { type ArticleWithDigest, articlePut, contentPut, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { failedAt, getMany, transact } from './items.ts';
import { backlinkWrites, linksPut, withCheckResults } from './links.ts';

/** Write a new draft (from a PUT or a restored revision) with its links, in one transaction. */
async function writeDraft(
  workspace: string,
  meta: ArticleWithDigest,
  draft: { content: StoredContent; bytes: Uint8Array; links: ExtractedLink[]; targets: InternalTarget[] },
  previousLinks: StoredLink[],
): Promise<ArticleItem> {
  const id = meta.id;
  const next: ArticleWithDigest = {
    ...meta,
    draft: headerOf(draft.content),
    translations: articleTranslations(draft.content, draft.content.hashes, meta.sourceLanguage),
    hasUnpublishedChanges: meta.publishedDigest !== contentDigest(draft.content),
    version: meta.version + 1,
    updatedAt: new Date().toISOString(),
  };
  try {
    await transact([
      articlePut(workspace, next, sameVersion(meta.version)),
      contentPut(keys.kbDraft(workspace, id), id, draft.bytes),
      linksPut(workspace, id, 'DRAFT', withCheckResults(draft.links, previousLinks)),
      ...backlinkWrites(workspace, id, 'DRAFT', internalTargets(previousLinks), draft.targets),
    ]);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
  return next;
}

export async function saveDraft(
  workspace: string,
  id: string,
  write: DraftWrite,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  const found = await getMany([keys.kbArticle(workspace, id), keys.kbDraft(workspace, id), keys.kbLinks(workspace, id, 'DRAFT')]);
  const meta = requireMeta(found, workspace, id, precondition);
  const previousDraft = found.get(keys.kbDraft(workspace, id).sk);
  const header = {
    titleEn: write.titleEn ?? null,
    titleAr: write.titleAr ?? null,
    summaryEn: write.summaryEn ?? null,
    summaryAr: write.summaryAr ?? null,
  };
  const prepared = prepareContent(header, write.blocks ?? [], meta.sourceLanguage, previousDraft && contentOf(previousDraft));
  const item = await writeDraft(workspace, meta, prepared, storedLinksOf(found.get(keys.kbLinks(workspace, id, 'DRAFT').sk)));
  return { item, content: prepared.content };
}

export async function restoreRevision(
  workspace: string,
  id: string,
  revision: number,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  const found = await getMany([
    keys.kbArticle(workspace, id),
    keys.kbRevision(workspace, id, revision),
    keys.kbLinks(workspace, id, 'DRAFT'),
  ]);
  const meta = requireMeta(found, workspace, id, precondition);
  const stored = found.get(keys.kbRevision(workspace, id, revision).sk);
  if (!stored) throw new NotFoundError('not_found', `Article ${id} has no revision ${revision}`);
  // The revision is copied as it was published, translation hashes included, so its per-block
  // translation status comes back with it.
  const content = contentOf(stored);
  const links = extractLinks(content.blocks);
  const draft = { content, bytes: stored.content as Uint8Array, links, targets: internalTargets(links) };
  const item = await writeDraft(workspace, meta, draft, storedLinksOf(found.get(keys.kbLinks(workspace, id, 'DRAFT').sk)));
  return { item, content };
}
