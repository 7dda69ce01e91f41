/**
 * Drafts: the draft content item of an article, replaced by a PUT or by a restored revision, with
 * its links and backlinks. Each read returns what the content rules need (lib/knowledge-bank/
 * draft-content.ts, run by the commands); the write is one transaction, conditional on the metadata version read.
 * Round trips: 1 BatchGet + 1 transaction.
 */

import { getMany } from '../../platform/data/batch.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { kbArticleEntity, kbContentEntity, kbLinksEntity } from '../entities.ts';
import { revisionNotFound } from '../errors.ts';
import { internalTargets } from '../links.ts';
import { type ArticleWithDigest, contentOf, type StoredContent, type StoredLink, storedLinksOf } from '../record.ts';
import { ARTICLE, articlePut, contentPut, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { backlinkWrites, linksPut } from './links.ts';

/** What a draft save starts from: the metadata (404 and If-Match checked), the draft and its links. */
export interface DraftState {
  meta: ArticleWithDigest;
  draft: StoredContent | undefined;
  draftLinks: StoredLink[];
}

/** One BatchGet: the metadata, the draft and the draft's links. */
export async function readDraft(workspace: string, id: string, precondition: VersionPrecondition): Promise<DraftState> {
  const [meta, draft, links] = await getMany([
    kbArticleEntity.keys.article(workspace, id),
    kbContentEntity.keys.draft(workspace, id),
    kbLinksEntity.keys.links(workspace, id, 'DRAFT'),
  ]);
  return { meta: requireMeta(meta, precondition), draft: draft && contentOf(draft), draftLinks: storedLinksOf(links) };
}

/** One BatchGet: the metadata, the revision to restore (404 when it was never published) and the draft's links. */
export async function readRevisionToRestore(
  workspace: string,
  id: string,
  revision: number,
  precondition: VersionPrecondition,
): Promise<{ meta: ArticleWithDigest; content: StoredContent; bytes: Uint8Array; draftLinks: StoredLink[] }> {
  const [metaItem, stored, links] = await getMany([
    kbArticleEntity.keys.article(workspace, id),
    kbContentEntity.keys.revision(workspace, id, revision),
    kbLinksEntity.keys.links(workspace, id, 'DRAFT'),
  ]);
  const meta = requireMeta(metaItem, precondition);
  if (!stored) throw revisionNotFound(id, revision);
  return { meta, content: contentOf(stored), bytes: stored.content as Uint8Array, draftLinks: storedLinksOf(links) };
}

/**
 * The new draft, its links and the backlinks they change, in one transaction that holds only if
 * the metadata item is still at the version read (else 404 or 409 from the item as it is now).
 */
export async function writeDraft(
  workspace: string,
  read: ArticleWithDigest,
  next: ArticleWithDigest,
  draft: { bytes: Uint8Array; links: StoredLink[] },
  previousLinks: StoredLink[],
): Promise<void> {
  const id = read.id;
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(read.version)),
      draft: contentPut(kbContentEntity.keys.draft(workspace, id), id, draft.bytes),
      links: linksPut(workspace, id, 'DRAFT', draft.links),
      ...backlinkWrites(workspace, id, 'DRAFT', internalTargets(previousLinks), internalTargets(draft.links)),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed(ARTICLE)) throw metaFailure(error);
    throw error;
  }
}
