/**
 * Publishing: the live content item, a new immutable revision, the live links and backlinks, all in
 * one transaction after the draft and its link targets are read (2 BatchGets; the rules between
 * run in lib/knowledge-bank/content-writes.ts); unpublishing removes the live content and its links.
 */

import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { Publication } from '../draft-content.ts';
import { articleNotFound } from '../errors.ts';
import { internalTargets } from '../links.ts';
import type { ArticleWithDigest, StoredLink } from '../record.ts';
import { type ArticleItem, contentOf, type StoredContent, storedLinksOf } from '../record.ts';
import { ARTICLE, articlePut, contentPut, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { backlinkWrites, linksPut } from './links.ts';

/** What publishing starts from: the metadata (404 and If-Match checked), the draft, and both views' links. */
export interface PublishState {
  meta: ArticleWithDigest;
  content: StoredContent;
  bytes: Uint8Array;
  draftLinks: StoredLink[];
  /** The links live now (none when the article is not published). */
  liveLinks: StoredLink[];
}

/** One BatchGet: the metadata, the draft and the links of both views. */
export async function readPublishState(workspace: string, id: string, precondition: VersionPrecondition): Promise<PublishState> {
  const [metaItem, draftItem, draftLinks, liveLinks] = await getMany([
    keys.kbArticle(workspace, id),
    keys.kbDraft(workspace, id),
    keys.kbLinks(workspace, id, 'DRAFT'),
    keys.kbLinks(workspace, id, 'LIVE'),
  ]);
  const meta = requireMeta(metaItem, precondition);
  if (!draftItem) throw articleNotFound();
  return {
    meta,
    content: contentOf(draftItem),
    bytes: draftItem.content as Uint8Array,
    draftLinks: storedLinksOf(draftLinks),
    liveLinks: meta.status === 'published' ? storedLinksOf(liveLinks) : [],
  };
}

/**
 * One transaction: the metadata (if still at the version read), the live content, the live links
 * and the backlinks they change, and, for a new revision, the immutable revision item.
 */
export async function writePublication(
  workspace: string,
  state: PublishState,
  { next, revision, newRevision }: Publication,
  links: StoredLink[],
  keyId: string,
): Promise<void> {
  const { meta, bytes } = state;
  const id = meta.id;
  const revisionPut = contentPut(keys.kbRevision(workspace, id, revision), id, bytes, {
    ...next.live,
    revision,
    publishedAt: next.publishedAt,
    publishedBy: keyId,
  });
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(meta.version)),
      live: contentPut(keys.kbLive(workspace, id), id, bytes, { revision }),
      links: linksPut(workspace, id, 'LIVE', links),
      ...backlinkWrites(workspace, id, 'LIVE', internalTargets(state.liveLinks), internalTargets(links)),
      // Revisions are immutable: never overwrite one.
      revision: newRevision && { Put: { ...revisionPut.Put!, ConditionExpression: 'attribute_not_exists(pk)' } },
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed(ARTICLE)) throw metaFailure(error);
    throw error;
  }
}

export async function unpublishArticle(
  workspace: string,
  id: string,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  // The draft is read too, because the response shows it.
  const [metaItem, liveLinksItem, draft] = await getMany([
    keys.kbArticle(workspace, id),
    keys.kbLinks(workspace, id, 'LIVE'),
    keys.kbDraft(workspace, id),
  ]);
  const meta = requireMeta(metaItem, precondition);
  if (meta.status !== 'published') throw new ConflictError('not_published', 'The article is not published');
  const now = new Date().toISOString();
  const next: ArticleWithDigest = {
    ...meta,
    status: 'unpublished',
    liveRevision: null,
    version: meta.version + 1,
    updatedAt: now,
  };
  const liveLinks = storedLinksOf(liveLinksItem);
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(meta.version)),
      live: { Delete: { TableName: tableName, Key: keys.kbLive(workspace, id) } },
      links: { Delete: { TableName: tableName, Key: keys.kbLinks(workspace, id, 'LIVE') } },
      // Live backlinks say "published content links here": an article with no live content has none.
      ...backlinkWrites(workspace, id, 'LIVE', internalTargets(liveLinks), []),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed(ARTICLE)) throw metaFailure(error);
    throw error;
  }
  if (!draft) throw articleNotFound();
  return { item: next, content: contentOf(draft) };
}
