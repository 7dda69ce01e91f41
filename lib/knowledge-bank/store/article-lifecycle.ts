/**
 * An article's creation, metadata changes and deletion, each with the slug claims, category counts,
 * links and backlinks that go with it. create: 1 transaction (+ 1 Query of taken slugs when
 * generated). patch: 1 BatchGet + 1 transaction. delete: BatchGet + Query of backlinks, 1
 * transaction, then the content in batches.
 */

import { randomUUID } from 'node:crypto';
import { deleteMany, getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { counterAdd, type NamedWrites, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { ApiError, BadRequestError } from '../../platform/errors.ts';
import type { Language } from '../blocks.ts';
import { type PreparedContent, withCheckResults } from '../draft-content.ts';
import { articleNotFound, slugTaken } from '../errors.ts';
import { internalTargets } from '../links.ts';
import { type ArticleItem, contentOf, headerOf, type StoredContent, storedLinksOf } from '../record.ts';
import type { ArticleCreate, ArticlePatch } from '../schemas.ts';
import { firstFreeSlug, slugBase } from '../slugs.ts';
import { ARTICLE, articlePut, contentPut, findArticle, metaFailure, requireMeta, sameVersion } from './articles.ts';
import { queryKeys } from './items.ts';
import { backlinkWrites, linksPut } from './links.ts';
import { slugClaim, slugRelease, takenArticleSlugs } from './slug-claims.ts';

const categoryNotFoundForArticle = () => new BadRequestError('category_not_found', 'categoryId names no category in this workspace');

/** Attempts at a generated slug when a concurrent create takes the one chosen. */
const SLUG_ATTEMPTS = 4;

/**
 * A new article in one transaction: its metadata, slug claim, draft, links and backlinks, and its
 * category's count. A generated slug is the first free one (1 Query), tried again if a concurrent
 * create takes it. With an Idempotency-Key, only the new id is remembered (a draft can be far
 * larger than an item may hold): a replay answers with that article as it is now.
 */
export async function insertArticle(
  workspace: string,
  body: ArticleCreate,
  source: Language,
  prepared: PreparedContent,
  idempotency: IdempotentRequest | undefined,
): Promise<{ article: { item: ArticleItem; content: StoredContent }; replayed: boolean }> {
  const header = headerOf(prepared.content);
  const id = randomUUID();
  const now = new Date().toISOString();
  const base = slugBase({ en: body.titleEn, ar: body.titleAr }, source, 'article');

  for (let attempt = 1; ; attempt++) {
    const articleSlug = body.slug ?? firstFreeSlug(base, await takenArticleSlugs(workspace, base));
    const item: ArticleItem = {
      id,
      categoryId: body.categoryId,
      slug: articleSlug,
      sourceLanguage: source,
      status: 'draft',
      visibility: body.visibility ?? 'public',
      tags: [...new Set(body.tags ?? [])],
      draft: header,
      live: null,
      latestRevision: 0,
      liveRevision: null,
      hasUnpublishedChanges: true,
      translations: prepared.translations,
      version: 1,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
    };
    const writes: NamedWrites = {
      [ARTICLE]: articlePut(workspace, item, { ConditionExpression: 'attribute_not_exists(pk)' }),
      slug: slugClaim(workspace, 'article', articleSlug, id),
      category: counterAdd(keys.kbCategory(workspace, body.categoryId), 'articleCount', 1, {
        condition: { expression: 'attribute_exists(pk)' },
      }),
      draft: contentPut(keys.kbDraft(workspace, id), id, prepared.bytes),
      links: linksPut(workspace, id, 'DRAFT', withCheckResults(prepared.links, [])),
      ...backlinkWrites(workspace, id, 'DRAFT', [], prepared.targets),
    };
    try {
      const { response, replayed } = await createOnce(workspace, writes, { articleId: id }, idempotency);
      if (!replayed) return { article: { item, content: prepared.content }, replayed };
      const earlier = await findArticle(workspace, response.articleId, 'draft');
      if (!earlier) throw articleNotFound();
      return { article: earlier, replayed };
    } catch (error) {
      if (!(error instanceof TransactionCancelledError)) throw error;
      if (error.failed('category')) throw categoryNotFoundForArticle();
      if (error.failed('slug') && !body.slug && attempt < SLUG_ATTEMPTS) continue; // a concurrent create took it
      if (error.failed('slug')) throw slugTaken('article');
      throw error;
    }
  }
}

export async function updateArticle(
  workspace: string,
  id: string,
  patch: ArticlePatch,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  // The draft is read with the metadata (one BatchGet) because the response shows it.
  const [meta, draft] = await getMany([keys.kbArticle(workspace, id), keys.kbDraft(workspace, id)]);
  const current = requireMeta(meta, precondition);
  if (!draft) throw articleNotFound();
  const next: ArticleItem = {
    ...current,
    ...(patch.categoryId !== undefined ? { categoryId: patch.categoryId } : {}),
    ...(patch.tags !== undefined ? { tags: [...new Set(patch.tags)] } : {}),
    ...(patch.visibility !== undefined ? { visibility: patch.visibility } : {}),
    ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
    version: current.version + 1,
    updatedAt: new Date().toISOString(),
  };
  const renamed = next.slug !== current.slug;
  const moved = next.categoryId !== current.categoryId;
  try {
    await transact({
      [ARTICLE]: articlePut(workspace, next, sameVersion(current.version)),
      slugClaim: renamed && slugClaim(workspace, 'article', next.slug, id),
      slugRelease: renamed && slugRelease(workspace, 'article', current.slug, id),
      category:
        moved &&
        counterAdd(keys.kbCategory(workspace, next.categoryId), 'articleCount', 1, { condition: { expression: 'attribute_exists(pk)' } }),
      previousCategory: moved && counterAdd(keys.kbCategory(workspace, current.categoryId), 'articleCount', -1),
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed(ARTICLE)) throw metaFailure(error);
    if (error.failed('slugClaim')) throw slugTaken('article');
    if (error.failed('category')) throw categoryNotFoundForArticle();
    throw error;
  }
  return { item: next, content: contentOf(draft) };
}

export async function deleteArticle(
  workspace: string,
  id: string,
  options: { force: boolean; precondition: VersionPrecondition },
): Promise<void> {
  const [[metaItem, draftLinks, liveLinks], backlinkKeys] = await Promise.all([
    getMany([keys.kbArticle(workspace, id), keys.kbLinks(workspace, id, 'DRAFT'), keys.kbLinks(workspace, id, 'LIVE')]),
    queryKeys(workspace, `${keys.kbBacklinkPrefix(id)}LIVE#`),
  ]);
  const meta = requireMeta(metaItem, options.precondition);
  const linkedFrom = [...new Set(backlinkKeys.map((key) => key.sk.split('#').at(-1) as string))].filter((source) => source !== id);
  if (linkedFrom.length > 0 && !options.force)
    throw new ApiError(
      409,
      'article_linked',
      `Published articles link to this article: ${linkedFrom.join(', ')}. Remove the links, or delete with ?force=true`,
      {},
      linkedFrom.map((source) => ({ path: `backlinks.${source}`, message: `published article ${source} links here` })),
    );
  const draftTargets = internalTargets(storedLinksOf(draftLinks));
  const liveTargets = internalTargets(storedLinksOf(liveLinks));
  try {
    await transact({
      [ARTICLE]: { Delete: { TableName: tableName, Key: keys.kbArticle(workspace, id), ...sameVersion(meta.version) } },
      slug: slugRelease(workspace, 'article', meta.slug, id),
      category: counterAdd(keys.kbCategory(workspace, meta.categoryId), 'articleCount', -1, {
        condition: { expression: 'attribute_exists(pk)' },
      }),
      draftLinks: { Delete: { TableName: tableName, Key: keys.kbLinks(workspace, id, 'DRAFT') } },
      liveLinks: { Delete: { TableName: tableName, Key: keys.kbLinks(workspace, id, 'LIVE') } },
      ...backlinkWrites(workspace, id, 'DRAFT', draftTargets, []),
      ...backlinkWrites(workspace, id, 'LIVE', liveTargets, []),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed(ARTICLE)) throw metaFailure(error);
    throw error;
  }
  // The article is gone for every reader now; its content, revisions and the backlink items that
  // pointed at it are cleared after (they are never read without the metadata item).
  const leftovers = [
    ...(await queryKeys(workspace, keys.kbDocumentPrefix(id))),
    ...(await queryKeys(workspace, keys.kbBacklinkPrefix(id))),
  ];
  await deleteMany(leftovers);
}
