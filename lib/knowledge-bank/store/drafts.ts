/**
 * Drafts: the draft content item of an article, replaced by a PUT or by a restored revision, with
 * its links and backlinks. Each read returns what the content rules need (lib/knowledge-bank/
 * draft-content.ts); the write is one transaction, conditional on the metadata version read.
 * Round trips: 1 BatchGet + 1 transaction.
 */

import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { internalTargets } from '../links.ts';
import { type ArticleWithDigest, contentOf, type StoredContent, type StoredLink, storedLinksOf } from '../record.ts';
import { articlePut, contentPut, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { failedAt, getMany, transact } from './items.ts';
import { backlinkWrites, linksPut } from './links.ts';

/** What a draft save starts from: the metadata (404 and If-Match checked), the draft and its links. */
export interface DraftState {
  meta: ArticleWithDigest;
  draft: StoredContent | undefined;
  draftLinks: StoredLink[];
}

/** One BatchGet: the metadata, the draft and the draft's links. */
export async function readDraft(workspace: string, id: string, precondition: VersionPrecondition): Promise<DraftState> {
  const draftKey = keys.kbDraft(workspace, id);
  const linksKey = keys.kbLinks(workspace, id, 'DRAFT');
  const found = await getMany([keys.kbArticle(workspace, id), draftKey, linksKey]);
  const meta = requireMeta(found, workspace, id, precondition);
  const draft = found.get(draftKey.sk);
  return { meta, draft: draft && contentOf(draft), draftLinks: storedLinksOf(found.get(linksKey.sk)) };
}

/** One BatchGet: the metadata, the revision to restore (404 when it was never published) and the draft's links. */
export async function readRevisionToRestore(
  workspace: string,
  id: string,
  revision: number,
  precondition: VersionPrecondition,
): Promise<{ meta: ArticleWithDigest; content: StoredContent; bytes: Uint8Array; draftLinks: StoredLink[] }> {
  const revisionKey = keys.kbRevision(workspace, id, revision);
  const linksKey = keys.kbLinks(workspace, id, 'DRAFT');
  const found = await getMany([keys.kbArticle(workspace, id), revisionKey, linksKey]);
  const meta = requireMeta(found, workspace, id, precondition);
  const stored = found.get(revisionKey.sk);
  if (!stored) throw new NotFoundError('not_found', `Article ${id} has no revision ${revision}`);
  return { meta, content: contentOf(stored), bytes: stored.content as Uint8Array, draftLinks: storedLinksOf(found.get(linksKey.sk)) };
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
    await transact([
      articlePut(workspace, next, sameVersion(read.version)),
      contentPut(keys.kbDraft(workspace, id), id, draft.bytes),
      linksPut(workspace, id, 'DRAFT', draft.links),
      ...backlinkWrites(workspace, id, 'DRAFT', internalTargets(previousLinks), internalTargets(draft.links)),
    ]);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
}
