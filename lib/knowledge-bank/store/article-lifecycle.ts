/**
 * An article's creation, metadata changes and deletion, each with the slug claims, category counts,
 * links and backlinks that go with it (the commands in lib/knowledge-bank/commands/ decide what they
 * are). create: 1 transaction (+ 1 Query of taken slugs when generated). patch: 1 BatchGet + 1
 * transaction. delete: BatchGet + Query of backlinks, 1 transaction, then the content in batches.
 */

import { deleteMany, getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { counterAdd, type NamedWrites, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { type PreparedContent, withCheckResults } from '../draft-content.ts';
import { kbArticleEntity, kbBacklinkEntity, kbCategoryEntity, kbContentEntity, kbLinksEntity } from '../entities.ts';
import { articleNotFound, categoryNotFoundForArticle, slugTaken } from '../errors.ts';
import { internalTargets } from '../links.ts';
import { type ArticleItem, type ArticleWithDigest, contentOf, type StoredContent, type StoredLink, storedLinksOf } from '../record.ts';
import { ARTICLE, articlePut, contentPut, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { queryKeys } from './items.ts';
import { backlinkWrites, linksPut } from './links.ts';
import { slugClaim, slugRelease } from './slug-claims.ts';

/**
 * A new article in one transaction: its metadata, slug claim, draft, links and backlinks, and its
 * category's count. With an Idempotency-Key, only the new id is remembered (a draft can be far
 * larger than an item may hold). `slug_taken` when a concurrent create holds the slug.
 */
export async function insertArticle(
  workspace: string,
  item: ArticleItem,
  prepared: PreparedContent,
  idempotency: IdempotentRequest | undefined,
): Promise<{ articleId: string; replayed: boolean } | 'slug_taken'> {
  const { id } = item;
  const writes: NamedWrites = {
    [ARTICLE]: articlePut(workspace, item, { ConditionExpression: 'attribute_not_exists(pk)' }),
    slug: slugClaim(workspace, 'article', item.slug, id),
    category: counterAdd(kbCategoryEntity.keys.category(workspace, item.categoryId), 'articleCount', 1, {
      condition: { expression: 'attribute_exists(pk)' },
    }),
    draft: contentPut(kbContentEntity.keys.draft(workspace, id), id, prepared.bytes),
    links: linksPut(workspace, id, 'DRAFT', withCheckResults(prepared.links, [])),
    ...backlinkWrites(workspace, id, 'DRAFT', [], prepared.targets),
  };
  try {
    const { response, replayed } = await createOnce(workspace, writes, { articleId: id }, idempotency);
    return { articleId: response.articleId, replayed };
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('category')) throw categoryNotFoundForArticle();
    if (error.failed('slug')) return 'slug_taken';
    throw error;
  }
}

/** One BatchGet: the metadata (404 and If-Match checked) and the draft, which the response shows. */
export async function readArticleToChange(
  workspace: string,
  id: string,
  precondition: VersionPrecondition,
): Promise<{ meta: ArticleWithDigest; draft: StoredContent }> {
  const [meta, draft] = await getMany([kbArticleEntity.keys.article(workspace, id), kbContentEntity.keys.draft(workspace, id)]);
  const current = requireMeta(meta, precondition);
  if (!draft) throw articleNotFound();
  return { meta: current, draft: contentOf(draft) };
}

/** The changed metadata, with the slug claim and category counts a rename or a move changes, in one transaction. */
export async function writeArticleChange(workspace: string, current: ArticleItem, next: ArticleItem): Promise<void> {
  const renamed = next.slug !== current.slug;
  const moved = next.categoryId !== current.categoryId;
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(current.version)),
      slugClaim: renamed && slugClaim(workspace, 'article', next.slug, next.id),
      slugRelease: renamed && slugRelease(workspace, 'article', current.slug, next.id),
      category:
        moved &&
        counterAdd(kbCategoryEntity.keys.category(workspace, next.categoryId), 'articleCount', 1, {
          condition: { expression: 'attribute_exists(pk)' },
        }),
      previousCategory: moved && counterAdd(kbCategoryEntity.keys.category(workspace, current.categoryId), 'articleCount', -1),
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed(ARTICLE)) throw metaFailure(error);
    if (error.failed('slugClaim')) throw slugTaken('article');
    if (error.failed('category')) throw categoryNotFoundForArticle();
    throw error;
  }
}

/** What a delete starts from: the metadata (404 and If-Match checked), both views' links, and the articles whose live content links here. */
export interface ArticleToDelete {
  meta: ArticleWithDigest;
  draftLinks: StoredLink[];
  liveLinks: StoredLink[];
  /** Ids of the articles with a live backlink item to this one (this one included if it links to itself). */
  liveLinkSources: string[];
}

/** A BatchGet beside one Query of the live backlinks. */
export async function readArticleToDelete(workspace: string, id: string, precondition: VersionPrecondition): Promise<ArticleToDelete> {
  const [[metaItem, draftLinks, liveLinks], backlinkKeys] = await Promise.all([
    getMany([
      kbArticleEntity.keys.article(workspace, id),
      kbLinksEntity.keys.links(workspace, id, 'DRAFT'),
      kbLinksEntity.keys.links(workspace, id, 'LIVE'),
    ]),
    queryKeys(workspace, `${kbBacklinkEntity.keys.prefix(id)}LIVE#`),
  ]);
  const meta = requireMeta(metaItem, precondition);
  return {
    meta,
    draftLinks: storedLinksOf(draftLinks),
    liveLinks: storedLinksOf(liveLinks),
    liveLinkSources: [...new Set(backlinkKeys.map((key) => key.sk.split('#').at(-1) as string))],
  };
}

/**
 * One transaction: the metadata (if still at the version read), its slug claim, its category's
 * count, both links items and the backlinks they implied. Then the article is gone for every reader;
 * its content, revisions and the backlink items that pointed at it are cleared after (they are
 * never read without the metadata item).
 */
export async function removeArticle(workspace: string, { meta, draftLinks, liveLinks }: ArticleToDelete): Promise<void> {
  const id = meta.id;
  try {
    await transact({
      [ARTICLE]: { Delete: { TableName: tableName, Key: kbArticleEntity.keys.article(workspace, id), ...sameVersion(meta.version) } },
      slug: slugRelease(workspace, 'article', meta.slug, id),
      category: counterAdd(kbCategoryEntity.keys.category(workspace, meta.categoryId), 'articleCount', -1, {
        condition: { expression: 'attribute_exists(pk)' },
      }),
      draftLinks: { Delete: { TableName: tableName, Key: kbLinksEntity.keys.links(workspace, id, 'DRAFT') } },
      liveLinks: { Delete: { TableName: tableName, Key: kbLinksEntity.keys.links(workspace, id, 'LIVE') } },
      ...backlinkWrites(workspace, id, 'DRAFT', internalTargets(draftLinks), []),
      ...backlinkWrites(workspace, id, 'LIVE', internalTargets(liveLinks), []),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed(ARTICLE)) throw metaFailure(error);
    throw error;
  }
  const leftovers = [
    ...(await queryKeys(workspace, kbContentEntity.keys.prefix(id))),
    ...(await queryKeys(workspace, kbBacklinkEntity.keys.prefix(id))),
  ];
  await deleteMany(leftovers);
}
