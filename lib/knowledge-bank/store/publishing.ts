/**
 * Publishing: the live content item, a new immutable revision, the live links and backlinks, all in
 * one transaction after the draft and its link targets are read (2 BatchGets); unpublishing removes
 * the live content and its links.
 */

import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { BadRequestError, ConflictError } from '../../platform/errors.ts';
import { contentDigest } from '../draft-content.ts';
import { articleNotFound } from '../errors.ts';
import { extractLinks, internalTargets } from '../links.ts';
import { checkPublishable } from '../publish.ts';
import { type ArticleItem, contentOf, headerOf, type StoredContent, storedLinksOf } from '../record.ts';
import { articleTranslations } from '../translation.ts';
import { type ArticleWithDigest, articlePut, contentPut, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { failedAt, getMany, type TransactItems, transact } from './items.ts';
import { backlinkWrites, linksPut, linkTargetStates, withCheckResults } from './links.ts';

export async function publishArticle(
  workspace: string,
  id: string,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  const draftKey = keys.kbDraft(workspace, id);
  const found = await getMany([
    keys.kbArticle(workspace, id),
    draftKey,
    keys.kbLinks(workspace, id, 'DRAFT'),
    keys.kbLinks(workspace, id, 'LIVE'),
  ]);
  const meta = requireMeta(found, workspace, id, precondition);
  const draftItem = found.get(draftKey.sk);
  if (!draftItem) throw articleNotFound();
  const content = contentOf(draftItem);
  if (meta.status === 'published' && !meta.hasUnpublishedChanges) return { item: meta, content };

  const links = extractLinks(content.blocks);
  const targets = internalTargets(links);
  const check = checkPublishable(meta, content, links, await linkTargetStates(workspace, targets));
  if (!check.ok) {
    const summary =
      check.error === 'invalid_links'
        ? `The draft has ${check.issues.length} link(s) that cannot be published`
        : 'The draft lacks what publishing needs in its source language';
    throw new BadRequestError(check.error, `${summary}: ${check.issues.map((i) => i.message).join('; ')}`, check.issues);
  }

  const now = new Date().toISOString();
  const newRevision = meta.hasUnpublishedChanges || meta.latestRevision === 0;
  const revision = newRevision ? meta.latestRevision + 1 : meta.latestRevision;
  const header = headerOf(content);
  const next: ArticleWithDigest = {
    ...meta,
    status: 'published',
    live: header,
    liveTranslations: articleTranslations(content, content.hashes, meta.sourceLanguage),
    latestRevision: revision,
    liveRevision: revision,
    hasUnpublishedChanges: false,
    publishedDigest: contentDigest(content),
    publishedAt: now,
    version: meta.version + 1,
    updatedAt: now,
  };
  const bytes = draftItem.content as Uint8Array;
  const liveLinks = meta.status === 'published' ? storedLinksOf(found.get(keys.kbLinks(workspace, id, 'LIVE').sk)) : [];
  const writes: TransactItems = [
    articlePut(workspace, next, sameVersion(meta.version)),
    contentPut(keys.kbLive(workspace, id), id, bytes, { revision }),
    linksPut(workspace, id, 'LIVE', withCheckResults(links, storedLinksOf(found.get(keys.kbLinks(workspace, id, 'DRAFT').sk)))),
    ...backlinkWrites(workspace, id, 'LIVE', internalTargets(liveLinks), targets),
  ];
  if (newRevision) {
    const revisionPut = contentPut(keys.kbRevision(workspace, id, revision), id, bytes, {
      ...header,
      revision,
      publishedAt: now,
      publishedBy: keyId,
    });
    // Revisions are immutable: never overwrite one.
    writes.push({ Put: { ...revisionPut.Put!, ConditionExpression: 'attribute_not_exists(pk)' } });
  }
  try {
    await transact(writes);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
  return { item: next, content };
}

export async function unpublishArticle(
  workspace: string,
  id: string,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  // The draft is read too, because the response shows it.
  const found = await getMany([keys.kbArticle(workspace, id), keys.kbLinks(workspace, id, 'LIVE'), keys.kbDraft(workspace, id)]);
  const meta = requireMeta(found, workspace, id, precondition);
  if (meta.status !== 'published') throw new ConflictError('not_published', 'The article is not published');
  const now = new Date().toISOString();
  const next: ArticleWithDigest = {
    ...meta,
    status: 'unpublished',
    liveRevision: null,
    version: meta.version + 1,
    updatedAt: now,
  };
  const liveLinks = storedLinksOf(found.get(keys.kbLinks(workspace, id, 'LIVE').sk));
  try {
    await transact([
      articlePut(workspace, next, sameVersion(meta.version)),
      { Delete: { TableName: tableName, Key: keys.kbLive(workspace, id) } },
      { Delete: { TableName: tableName, Key: keys.kbLinks(workspace, id, 'LIVE') } },
      // Live backlinks say "published content links here": an article with no live content has none.
      ...backlinkWrites(workspace, id, 'LIVE', internalTargets(liveLinks), []),
    ]);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
  const draft = found.get(keys.kbDraft(workspace, id).sk);
  if (!draft) throw articleNotFound();
  return { item: next, content: contentOf(draft) };
}
