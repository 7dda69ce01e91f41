/**
 * Publishing: the live content item, a new immutable revision, the live links and backlinks, all in
 * one transaction after the draft and its link targets are read (2 BatchGets; the rules between
 * run in lib/knowledge-bank/commands/publish-article.ts); unpublishing removes the live content and its links.
 */

import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import type { Publication } from '../draft-content.ts';
import { kbArticleEntity, kbContentEntity, kbLinksEntity } from '../entities.ts';
import { articleNotFound } from '../errors.ts';
import { internalTargets } from '../links.ts';
import { type ArticleWithDigest, contentOf, type StoredContent, type StoredLink, storedLinksOf } from '../record.ts';
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
    kbArticleEntity.keys.article(workspace, id),
    kbContentEntity.keys.draft(workspace, id),
    kbLinksEntity.keys.links(workspace, id, 'DRAFT'),
    kbLinksEntity.keys.links(workspace, id, 'LIVE'),
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
  const revisionPut = contentPut(kbContentEntity.keys.revision(workspace, id, revision), id, bytes, {
    ...next.live,
    revision,
    publishedAt: next.publishedAt,
    publishedBy: keyId,
  });
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(meta.version)),
      live: contentPut(kbContentEntity.keys.live(workspace, id), id, bytes, { revision }),
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

/** What an unpublish starts from: the metadata (404 and If-Match checked), the live links, and the draft the response shows. */
export interface UnpublishState {
  meta: ArticleWithDigest;
  liveLinks: StoredLink[];
  draft: StoredContent | undefined;
}

/** One BatchGet: the metadata, the live links and the draft. */
export async function readUnpublishState(workspace: string, id: string, precondition: VersionPrecondition): Promise<UnpublishState> {
  const [metaItem, liveLinksItem, draft] = await getMany([
    kbArticleEntity.keys.article(workspace, id),
    kbLinksEntity.keys.links(workspace, id, 'LIVE'),
    kbContentEntity.keys.draft(workspace, id),
  ]);
  const meta = requireMeta(metaItem, precondition);
  return { meta, liveLinks: storedLinksOf(liveLinksItem), draft: draft && contentOf(draft) };
}

/** One transaction: the metadata (if still at the version read), without the live content, its links and the backlinks they implied. */
export async function writeUnpublication(workspace: string, state: UnpublishState, next: ArticleWithDigest): Promise<void> {
  const { meta, liveLinks } = state;
  const id = meta.id;
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(meta.version)),
      live: { Delete: { TableName: tableName, Key: kbContentEntity.keys.live(workspace, id) } },
      links: { Delete: { TableName: tableName, Key: kbLinksEntity.keys.links(workspace, id, 'LIVE') } },
      // Live backlinks say "published content links here": an article with no live content has none.
      ...backlinkWrites(workspace, id, 'LIVE', internalTargets(liveLinks), []),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed(ARTICLE)) throw metaFailure(error);
    throw error;
  }
}
