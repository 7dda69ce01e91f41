/**
 * Access patterns of the knowledge bank. Every key is built by `keys.kb*` under the workspace's
 * partition, so another workspace's id is simply not found. Round trips per operation (the README
 * section "Costs and limits" says why where there is more than one):
 *   categories  list, get: 1 Query of the tree. create, patch, delete: that Query (categories and
 *               their slug claims), then 1 transaction conditional on the versions read.
 *   articles    get, revision: 1 BatchGet (metadata + content). list, translations: 1 Query of
 *               the metadata items. create: 1 transaction (+ 1 Query of taken slugs when generated).
 *               patch, draft, restore, unpublish: 1 BatchGet + 1 transaction.
 *               publish: 1 BatchGet + 1 BatchGet of the linked articles and categories + 1 transaction.
 *               delete: BatchGet + Query of backlinks, 1 transaction, then the content in batches.
 * Links and backlinks are items written in the same transaction as the content that implies them,
 * so they never disagree with it, and backlinks are one Query.
 */

import { createHash, randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/data/client.ts';
import {
  meetsPrecondition,
  retryTransactionConflicts,
  transactionCancellationReasons,
  type VersionPrecondition,
} from '../platform/data/conditions.ts';
import { type IdempotentRequest, transactCreate } from '../platform/data/idempotency.ts';
import { keys } from '../platform/data/keys.ts';
import { queryAll } from '../platform/data/query-all.ts';
import { ApiError, BadRequestError, ConflictError, ContentTooLargeError, NotFoundError, VersionConflictError } from '../platform/errors.ts';
import type { PageKey, PageStart } from '../platform/pagination.ts';
import { assignBlockIds } from './block-ids.ts';
import type { BlockInput, Language } from './blocks.ts';
import { checkPlacement, flattenTree } from './category-tree.ts';
import { encodeContent, MAX_CONTENT_BYTES } from './content-codec.ts';
import { type ExtractedLink, extractLinks, type InternalTarget, internalTargets, linkLimitProblem, targetChanges } from './links.ts';
import { checkPublishable, type LinkTargetState } from './publish.ts';
import {
  type ArticleItem,
  type CategoryItem,
  contentOf,
  headerOf,
  KB_ENTITY,
  type StoredContent,
  type StoredLink,
  storedLinksOf,
  toCategory,
} from './record.ts';
import type { ArticleCreate, ArticlePatch, Category, CategoryCreate, CategoryPatch, DraftWrite } from './schemas.ts';
import { firstFreeSlug, slugBase } from './slugs.ts';
import { articleTranslations, nextTranslationHashes, type TranslatableContent } from './translation.ts';

/** Attempts at a generated slug when a concurrent create takes the one chosen. */
const SLUG_ATTEMPTS = 4;

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
type Item = Record<string, unknown>;

// ---------------------------------------------------------------- errors

export const categoryNotFound = () => new NotFoundError('not_found', 'No category with this id in this workspace');
export const articleNotFound = () => new NotFoundError('not_found', 'No article with this id in this workspace');

// ---------------------------------------------------------------- helpers

async function transact(items: TransactItems): Promise<void> {
  await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })));
}

/** The indexes of the items whose condition failed in a cancelled transaction; null when it was not cancelled. */
function failedAt(error: unknown): number[] | null {
  const reasons = transactionCancellationReasons(error);
  if (!reasons) return null;
  return reasons.flatMap((reason, index) => (reason === 'ConditionalCheckFailed' ? [index] : []));
}

function cancelledItem(error: unknown, index: number): Record<string, AttributeValue> | undefined {
  return (error as { CancellationReasons?: { Item?: Record<string, AttributeValue> }[] }).CancellationReasons?.[index]?.Item;
}

/** BatchGet by key (strongly consistent), following UnprocessedKeys; items by sort key. */
async function getMany(keyList: Array<{ pk: string; sk: string }>): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (let start = 0; start < keyList.length; start += 100) {
    let pending: Array<Record<string, unknown>> | undefined = keyList.slice(start, start + 100);
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await dynamo.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[tableName] ?? []) found.set(item.sk as string, item);
      pending = result.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return found;
}

// ---------------------------------------------------------------- categories

async function readCategories(slug: string): Promise<{ categories: CategoryItem[]; slugs: Set<string> }> {
  // Categories (KBCAT#…) and their slug claims (KBCATSLUG#…) are adjacent: one range, one Query.
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.workspacePk(slug),
      ':from': keys.kbCategoryTreeRange.from,
      ':to': keys.kbCategoryTreeRange.to,
    },
    ConsistentRead: true,
  });
  const categories: CategoryItem[] = [];
  const slugs = new Set<string>();
  for (const item of items) {
    if (item.entity === KB_ENTITY.category) categories.push(item as unknown as CategoryItem);
    else if (item.entity === KB_ENTITY.categorySlug) slugs.add(item.slug as string);
  }
  return { categories, slugs };
}

export async function listCategories(slug: string): Promise<Category[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': keys.kbCategoryPrefix },
    ConsistentRead: true,
  });
  return flattenTree(items as unknown as CategoryItem[]).map((node) => toCategory(node as unknown as Item, node.depth));
}

function depthIn(categories: CategoryItem[], id: string): number {
  return flattenTree(categories).find((node) => node.id === id)?.depth ?? 1;
}

function placementError(reason: 'parent_not_found' | 'cycle' | 'too_deep'): BadRequestError {
  if (reason === 'parent_not_found') return new BadRequestError('parent_not_found', 'parentId names no category in this workspace');
  if (reason === 'cycle') return new BadRequestError('category_cycle', 'A category cannot move under itself or its own subcategory');
  return new BadRequestError('category_too_deep', 'Categories nest at most 3 levels deep (counting the subcategories a move carries)');
}

/** Guards a parent read in the tree: unchanged since, so the depth decided on still holds. */
function parentUnchanged(slug: string, parent: CategoryItem): TransactItems[number] {
  return {
    Update: {
      TableName: tableName,
      Key: keys.kbCategory(slug, parent.id),
      UpdateExpression: 'ADD childCount :one',
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':one': 1, ':version': parent.version },
    },
  };
}

const treeChanged = () => new ConflictError('tree_changed', 'The category tree changed while this request ran; retry it');

export async function createCategory(
  slug: string,
  body: CategoryCreate,
  idempotency: IdempotentRequest | undefined,
): Promise<{ category: Category; replayed: boolean }> {
  const { categories, slugs } = await readCategories(slug);
  const id = randomUUID();
  const parentId = body.parentId ?? null;
  const placement = checkPlacement(categories, id, parentId);
  if (!placement.ok) throw placementError(placement.reason);
  if (body.slug && slugs.has(body.slug)) throw slugTaken('category');
  const categorySlug =
    body.slug ?? firstFreeSlug(slugBase({ en: body.nameEn, ar: body.nameAr }, body.nameEn ? 'en' : 'ar', 'category'), slugs);
  const now = new Date().toISOString();
  const siblings = categories.filter((c) => (c.parentId ?? null) === parentId);
  const item: CategoryItem = {
    id,
    parentId,
    nameEn: body.nameEn ?? null,
    nameAr: body.nameAr ?? null,
    descriptionEn: body.descriptionEn ?? null,
    descriptionAr: body.descriptionAr ?? null,
    slug: categorySlug,
    position: body.position ?? (siblings.length === 0 ? 0 : Math.max(...siblings.map((s) => s.position)) + 1),
    visibility: body.visibility ?? 'public',
    articleCount: 0,
    childCount: 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const writes: TransactItems = [
    {
      Put: {
        TableName: tableName,
        Item: { ...keys.kbCategory(slug, id), entity: KB_ENTITY.category, ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    slugClaim(slug, 'category', categorySlug, id),
  ];
  const parent = parentId ? categories.find((c) => c.id === parentId) : undefined;
  if (parent) writes.push(parentUnchanged(slug, parent));
  try {
    const { response, replayed } = await transactCreate(slug, writes, toCategory(item as unknown as Item, placement.depth), idempotency);
    return { category: response, replayed };
  } catch (error) {
    const failed = failedAt(error);
    if (!failed) throw error;
    if (failed.includes(1)) throw slugTaken('category');
    throw treeChanged();
  }
}

export async function getCategory(slug: string, id: string): Promise<Category | null> {
  const { categories } = await readCategories(slug);
  const found = categories.find((c) => c.id === id);
  return found ? toCategory(found as unknown as Item, depthIn(categories, id)) : null;
}

function slugTaken(kind: 'article' | 'category'): ConflictError {
  return new ConflictError('slug_taken', `Another ${kind} in this workspace already has this slug`);
}

function slugClaim(slug: string, kind: 'article' | 'category', value: string, ownerId: string): TransactItems[number] {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...(kind === 'article' ? keys.kbArticleSlug(slug, value) : keys.kbCategorySlug(slug, value)),
        entity: kind === 'article' ? KB_ENTITY.articleSlug : KB_ENTITY.categorySlug,
        slug: value,
        ownerId,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

function slugRelease(slug: string, kind: 'article' | 'category', value: string, ownerId: string): TransactItems[number] {
  return {
    Delete: {
      TableName: tableName,
      Key: kind === 'article' ? keys.kbArticleSlug(slug, value) : keys.kbCategorySlug(slug, value),
      ConditionExpression: 'ownerId = :owner',
      ExpressionAttributeValues: { ':owner': ownerId },
    },
  };
}

const CATEGORY_FIELDS = ['nameEn', 'nameAr', 'descriptionEn', 'descriptionAr', 'position', 'visibility'] as const;

export async function updateCategory(slug: string, id: string, patch: CategoryPatch, precondition: VersionPrecondition): Promise<Category> {
  const { categories, slugs } = await readCategories(slug);
  const current = categories.find((c) => c.id === id);
  if (!current) throw categoryNotFound();
  if (!meetsPrecondition(precondition, current.version)) throw new VersionConflictError(current.version);

  const next: CategoryItem = { ...current };
  for (const field of CATEGORY_FIELDS) {
    const value = patch[field];
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (!next.nameEn?.trim() && !next.nameAr?.trim())
    throw new BadRequestError('invalid_body', 'A category keeps nameEn or nameAr; both cannot be cleared');
  const writes: TransactItems = [];
  const moving = patch.parentId !== undefined && (patch.parentId ?? null) !== (current.parentId ?? null);
  if (moving) {
    const placement = checkPlacement(categories, id, patch.parentId ?? null);
    if (!placement.ok) throw placementError(placement.reason);
    next.parentId = patch.parentId ?? null;
    const newParent = categories.find((c) => c.id === next.parentId);
    if (newParent) writes.push(parentUnchanged(slug, newParent));
    if (current.parentId)
      writes.push({
        Update: {
          TableName: tableName,
          Key: keys.kbCategory(slug, current.parentId),
          UpdateExpression: 'ADD childCount :minusOne',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      });
  }
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    if (slugs.has(patch.slug)) throw slugTaken('category');
    next.slug = patch.slug;
    writes.push(slugClaim(slug, 'category', patch.slug, id), slugRelease(slug, 'category', current.slug, id));
  }
  next.version = current.version + 1;
  next.updatedAt = new Date().toISOString();
  // Only the fields a PATCH owns are set (from an allow-list); the counters (articleCount,
  // childCount), which other transactions ADD to without a version bump, are left alone.
  const owned = ['parentId', 'slug', ...CATEGORY_FIELDS, 'version', 'updatedAt'] as const;
  writes.unshift({
    Update: {
      TableName: tableName,
      Key: keys.kbCategory(slug, id),
      UpdateExpression: `SET ${owned.map((field) => `#${field} = :${field}`).join(', ')}`,
      ConditionExpression: '#version = :readVersion',
      ExpressionAttributeNames: Object.fromEntries(owned.map((field) => [`#${field}`, field])),
      ExpressionAttributeValues: {
        ...Object.fromEntries(owned.map((field) => [`:${field}`, next[field]])),
        ':readVersion': current.version,
      },
      // The item as it is now tells a delete (404) from a concurrent change (409) without a read.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
  try {
    await transact(writes);
  } catch (error) {
    const failed = failedAt(error);
    if (!failed) throw error;
    if (failed.includes(0)) {
      const version = cancelledItem(error, 0)?.version?.N;
      if (version === undefined) throw categoryNotFound();
      // Changed by someone else since the read: with If-Match that is a conflict; without, the
      // tree this move or slug was checked against may be stale, so the client retries.
      if (precondition && !precondition.anyVersion) throw new VersionConflictError(Number(version));
      throw treeChanged();
    }
    if (writes.some((w, i) => failed.includes(i) && w.Put?.Item?.entity === KB_ENTITY.categorySlug)) throw slugTaken('category');
    throw treeChanged();
  }
  const after = categories.map((c) => (c.id === id ? next : c));
  return toCategory(next as unknown as Item, depthIn(after, id));
}

export async function deleteCategory(slug: string, id: string, precondition: VersionPrecondition): Promise<void> {
  const { categories } = await readCategories(slug);
  const current = categories.find((c) => c.id === id);
  if (!current) throw categoryNotFound();
  if (!meetsPrecondition(precondition, current.version)) throw new VersionConflictError(current.version);
  const children = categories.filter((c) => c.parentId === id).length;
  if (children > 0 || (current.articleCount ?? 0) > 0) throw categoryNotEmpty(children, current.articleCount ?? 0);
  const writes: TransactItems = [
    {
      Delete: {
        TableName: tableName,
        Key: keys.kbCategory(slug, id),
        // Empty now, by the counters kept in the same transactions that fill it.
        ConditionExpression:
          '#version = :version AND (attribute_not_exists(articleCount) OR articleCount <= :zero) AND (attribute_not_exists(childCount) OR childCount <= :zero)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': current.version, ':zero': 0 },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    slugRelease(slug, 'category', current.slug, id),
  ];
  if (current.parentId)
    writes.push({
      Update: {
        TableName: tableName,
        Key: keys.kbCategory(slug, current.parentId),
        UpdateExpression: 'ADD childCount :minusOne',
        ExpressionAttributeValues: { ':minusOne': -1 },
      },
    });
  try {
    await transact(writes);
  } catch (error) {
    const failed = failedAt(error);
    if (!failed?.includes(0)) throw error;
    const item = cancelledItem(error, 0);
    if (!item) throw categoryNotFound();
    const articleCount = Number(item.articleCount?.N ?? 0);
    const childCount = Number(item.childCount?.N ?? 0);
    if (articleCount > 0 || childCount > 0) throw categoryNotEmpty(childCount, articleCount);
    throw new VersionConflictError(Number(item.version?.N));
  }
}

function categoryNotEmpty(categories: number, articles: number): ConflictError {
  return new ConflictError(
    'category_not_empty',
    `The category still holds ${categories} categories and ${articles} articles; move or delete them first`,
  );
}

// ---------------------------------------------------------------- articles: content and links

interface PreparedContent {
  content: StoredContent;
  bytes: Uint8Array;
  links: ExtractedLink[];
  targets: InternalTarget[];
}

/**
 * Validate and encode a draft: block ids, the link cap, translation hashes against the previous
 * draft, and the size caps. Throws the 400/413 the client must see.
 */
function prepareContent(
  header: Omit<TranslatableContent, 'blocks'>,
  blocks: readonly BlockInput[],
  source: Language,
  previous: StoredContent | undefined,
): PreparedContent {
  const assigned = assignBlockIds(blocks);
  if (!assigned.ok)
    throw new BadRequestError(
      'duplicate_block_id',
      `Block ids must be unique in an article; repeated: ${assigned.duplicateIds.join(', ')}`,
    );
  const translatable: TranslatableContent = { ...header, blocks: assigned.blocks };
  const links = extractLinks(assigned.blocks);
  const targets = internalTargets(links);
  const linkProblem = linkLimitProblem(links);
  if (linkProblem) throw new BadRequestError('too_many_links', linkProblem);
  const hashes = nextTranslationHashes(previous ? { content: previous, hashes: previous.hashes } : undefined, translatable, source);
  const content: StoredContent = { ...translatable, hashes };
  const encoded = encodeContent(content);
  if (!encoded.ok)
    throw new ContentTooLargeError(
      encoded.jsonBytes > MAX_CONTENT_BYTES
        ? `The article content is ${encoded.jsonBytes} bytes of JSON; the limit is ${MAX_CONTENT_BYTES}`
        : 'The article content does not compress to fit one stored item; shorten it or split the article',
    );
  return { content, bytes: encoded.bytes, links, targets };
}

function contentPut(key: { pk: string; sk: string }, articleId: string, bytes: Uint8Array, extra: Item = {}): TransactItems[number] {
  return { Put: { TableName: tableName, Item: { ...key, entity: KB_ENTITY.content, articleId, content: bytes, ...extra } } };
}

function linksPut(slug: string, articleId: string, view: 'DRAFT' | 'LIVE', links: StoredLink[]): TransactItems[number] {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.kbLinks(slug, articleId, view), entity: KB_ENTITY.links, articleId, view, links },
    },
  };
}

/** Backlink puts and deletes for a change of outgoing internal targets. */
function backlinkWrites(
  slug: string,
  sourceId: string,
  view: 'DRAFT' | 'LIVE',
  before: readonly InternalTarget[],
  after: readonly InternalTarget[],
): TransactItems {
  const { added, removed } = targetChanges(before, after);
  return [
    ...added.map((target) => ({
      Put: {
        TableName: tableName,
        Item: {
          ...keys.kbBacklink(slug, target.id, view, sourceId),
          entity: KB_ENTITY.backlink,
          targetId: target.id,
          targetKind: target.kind,
          sourceId,
          view,
        },
      },
    })),
    ...removed.map((target) => ({ Delete: { TableName: tableName, Key: keys.kbBacklink(slug, target.id, view, sourceId) } })),
  ];
}

/** Links as stored: an external link keeps what the link checker recorded while its id stays the same. */
function withCheckResults(links: ExtractedLink[], previous: StoredLink[]): StoredLink[] {
  const checked = new Map(previous.map((link) => [link.id, link]));
  return links.map((link) => {
    const earlier = checked.get(link.id);
    if (link.kind !== 'external' && link.kind !== 'record') return link;
    return {
      ...link,
      status: earlier?.status ?? 'unchecked',
      httpStatus: earlier?.httpStatus ?? null,
      checkedAt: earlier?.checkedAt ?? null,
    };
  });
}

/** A failed condition on the article's metadata item: gone → 404, else → 409 version_conflict. */
function metaFailure(error: unknown, index = 0): Error {
  const version = cancelledItem(error, index)?.version?.N;
  return version === undefined ? articleNotFound() : new VersionConflictError(Number(version));
}

function articlePut(slug: string, item: ArticleItem, condition: Item): TransactItems[number] {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.kbArticle(slug, item.id), entity: KB_ENTITY.article, ...item },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      ...condition,
    },
  };
}

/** Condition for rewriting a metadata item read at `version` (and meeting the client's If-Match). */
function sameVersion(version: number): Item {
  return {
    ConditionExpression: '#version = :readVersion',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':readVersion': version },
  };
}

// ---------------------------------------------------------------- articles: create

async function takenArticleSlugs(slug: string, base: string): Promise<Set<string>> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': `${keys.kbArticleSlugPrefix}${base}` },
    ProjectionExpression: 'slug',
    ConsistentRead: true,
  });
  return new Set(items.map((item) => item.slug as string));
}

/**
 * Create a draft. With an Idempotency-Key, only the new id is remembered (a draft can be far larger
 * than an item may hold): a replay answers with that article as it is now.
 */
export async function createArticle(
  slug: string,
  body: ArticleCreate,
  idempotency: IdempotentRequest | undefined,
): Promise<{ article: { item: ArticleItem; content: StoredContent }; replayed: boolean }> {
  const source: Language = body.sourceLanguage ?? (body.titleEn ? 'en' : body.titleAr ? 'ar' : 'en');
  const header = {
    titleEn: body.titleEn ?? null,
    titleAr: body.titleAr ?? null,
    summaryEn: body.summaryEn ?? null,
    summaryAr: body.summaryAr ?? null,
  };
  const prepared = prepareContent(header, body.blocks ?? [], source, undefined);
  const id = randomUUID();
  const now = new Date().toISOString();
  const base = slugBase({ en: body.titleEn, ar: body.titleAr }, source, 'article');

  for (let attempt = 1; ; attempt++) {
    const articleSlug = body.slug ?? firstFreeSlug(base, await takenArticleSlugs(slug, base));
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
      translations: articleTranslations(prepared.content, prepared.content.hashes, source),
      version: 1,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
    };
    const writes: TransactItems = [
      articlePut(slug, item, { ConditionExpression: 'attribute_not_exists(pk)' }),
      slugClaim(slug, 'article', articleSlug, id),
      {
        Update: {
          TableName: tableName,
          Key: keys.kbCategory(slug, body.categoryId),
          UpdateExpression: 'ADD articleCount :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      contentPut(keys.kbDraft(slug, id), id, prepared.bytes),
      linksPut(slug, id, 'DRAFT', withCheckResults(prepared.links, [])),
      ...backlinkWrites(slug, id, 'DRAFT', [], prepared.targets),
    ];
    try {
      const { response, replayed } = await transactCreate(slug, writes, { articleId: id }, idempotency);
      if (!replayed) return { article: { item, content: prepared.content }, replayed };
      const earlier = await getArticle(slug, response.articleId, 'draft');
      if (!earlier) throw articleNotFound();
      return { article: earlier, replayed };
    } catch (error) {
      const failed = failedAt(error);
      if (!failed) throw error;
      if (failed.includes(2)) throw new BadRequestError('category_not_found', 'categoryId names no category in this workspace');
      if (failed.includes(1) && !body.slug && attempt < SLUG_ATTEMPTS) continue; // a concurrent create took it
      if (failed.includes(1)) throw slugTaken('article');
      throw error;
    }
  }
}

// ---------------------------------------------------------------- articles: read

export async function getArticle(
  slug: string,
  id: string,
  view: 'draft' | 'live',
): Promise<{ item: ArticleItem; content: StoredContent } | null> {
  const contentKey = view === 'draft' ? keys.kbDraft(slug, id) : keys.kbLive(slug, id);
  const found = await getMany([keys.kbArticle(slug, id), contentKey]);
  const meta = found.get(keys.kbArticle(slug, id).sk);
  const content = found.get(contentKey.sk);
  if (!meta || !content) return null;
  return { item: meta as unknown as ArticleItem, content: contentOf(content) };
}

export async function getArticleItem(slug: string, id: string): Promise<ArticleItem | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.kbArticle(slug, id), ConsistentRead: true }));
  return (Item as ArticleItem | undefined) ?? null;
}

/** Every article's metadata (small items; content is elsewhere). */
export async function listArticleItems(slug: string): Promise<ArticleItem[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': keys.kbArticlePrefix },
    ConsistentRead: true,
  });
  return items as unknown as ArticleItem[];
}

// ---------------------------------------------------------------- articles: metadata

export async function updateArticle(
  slug: string,
  id: string,
  patch: ArticlePatch,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  // The draft is read with the metadata (one BatchGet) because the response shows it.
  const found = await getMany([keys.kbArticle(slug, id), keys.kbDraft(slug, id)]);
  const current = requireMeta(found, slug, id, precondition);
  const draft = found.get(keys.kbDraft(slug, id).sk);
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
  const writes: TransactItems = [articlePut(slug, next, sameVersion(current.version))];
  const slugIndex = writes.length;
  if (next.slug !== current.slug) writes.push(slugClaim(slug, 'article', next.slug, id), slugRelease(slug, 'article', current.slug, id));
  const categoryIndex = writes.length;
  if (next.categoryId !== current.categoryId)
    writes.push(
      {
        Update: {
          TableName: tableName,
          Key: keys.kbCategory(slug, next.categoryId),
          UpdateExpression: 'ADD articleCount :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.kbCategory(slug, current.categoryId),
          UpdateExpression: 'ADD articleCount :minusOne',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    );
  try {
    await transact(writes);
  } catch (error) {
    const failed = failedAt(error);
    if (!failed) throw error;
    if (failed.includes(0)) throw metaFailure(error);
    if (failed.includes(slugIndex) && next.slug !== current.slug) throw slugTaken('article');
    if (failed.includes(categoryIndex)) throw new BadRequestError('category_not_found', 'categoryId names no category in this workspace');
    throw error;
  }
  return { item: next, content: contentOf(draft) };
}

// ---------------------------------------------------------------- articles: draft, publish, restore

/** Identifies published words: a draft equal to the latest revision has no unpublished changes. */
function contentDigest(content: TranslatableContent): string {
  return createHash('sha256')
    .update(JSON.stringify([content.titleEn, content.titleAr, content.summaryEn, content.summaryAr, content.blocks]))
    .digest('base64url');
}

interface ArticleWithDigest extends ArticleItem {
  /** contentDigest of the latest revision (absent before the first publish). */
  publishedDigest?: string;
}

function requireMeta(found: Map<string, Item>, slug: string, id: string, precondition: VersionPrecondition): ArticleWithDigest {
  const meta = found.get(keys.kbArticle(slug, id).sk) as ArticleWithDigest | undefined;
  if (!meta) throw articleNotFound();
  if (!meetsPrecondition(precondition, meta.version)) throw new VersionConflictError(meta.version);
  return meta;
}

/** Write a new draft (from a PUT or a restored revision) with its links, in one transaction. */
async function writeDraft(
  slug: string,
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
      articlePut(slug, next, sameVersion(meta.version)),
      contentPut(keys.kbDraft(slug, id), id, draft.bytes),
      linksPut(slug, id, 'DRAFT', withCheckResults(draft.links, previousLinks)),
      ...backlinkWrites(slug, id, 'DRAFT', internalTargets(previousLinks), draft.targets),
    ]);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
  return next;
}

export async function saveDraft(
  slug: string,
  id: string,
  write: DraftWrite,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  const found = await getMany([keys.kbArticle(slug, id), keys.kbDraft(slug, id), keys.kbLinks(slug, id, 'DRAFT')]);
  const meta = requireMeta(found, slug, id, precondition);
  const previousDraft = found.get(keys.kbDraft(slug, id).sk);
  const header = {
    titleEn: write.titleEn ?? null,
    titleAr: write.titleAr ?? null,
    summaryEn: write.summaryEn ?? null,
    summaryAr: write.summaryAr ?? null,
  };
  const prepared = prepareContent(header, write.blocks ?? [], meta.sourceLanguage, previousDraft && contentOf(previousDraft));
  const item = await writeDraft(slug, meta, prepared, storedLinksOf(found.get(keys.kbLinks(slug, id, 'DRAFT').sk)));
  return { item, content: prepared.content };
}

export async function restoreRevision(
  slug: string,
  id: string,
  revision: number,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  const found = await getMany([keys.kbArticle(slug, id), keys.kbRevision(slug, id, revision), keys.kbLinks(slug, id, 'DRAFT')]);
  const meta = requireMeta(found, slug, id, precondition);
  const stored = found.get(keys.kbRevision(slug, id, revision).sk);
  if (!stored) throw new NotFoundError('not_found', `Article ${id} has no revision ${revision}`);
  // The revision is copied as it was published, translation hashes included, so its per-block
  // translation status comes back with it.
  const content = contentOf(stored);
  const links = extractLinks(content.blocks);
  const draft = { content, bytes: stored.content as Uint8Array, links, targets: internalTargets(links) };
  const item = await writeDraft(slug, meta, draft, storedLinksOf(found.get(keys.kbLinks(slug, id, 'DRAFT').sk)));
  return { item, content };
}

/** What the store knows of each linked article or category, for the publish rules. */
async function linkTargetStates(slug: string, targets: InternalTarget[]): Promise<Map<string, LinkTargetState>> {
  const keyList = targets.map((t) => (t.kind === 'article' ? keys.kbArticle(slug, t.id) : keys.kbCategory(slug, t.id)));
  const found = await getMany(keyList);
  const states = new Map<string, LinkTargetState>();
  for (const item of found.values()) {
    if (item.entity === KB_ENTITY.article)
      states.set(item.id as string, {
        kind: 'article',
        visibility: item.visibility as 'public' | 'internal',
        published: item.status === 'published',
      });
    else if (item.entity === KB_ENTITY.category)
      states.set(item.id as string, { kind: 'category', visibility: item.visibility as 'public' | 'internal', published: true });
  }
  return states;
}

export async function publishArticle(
  slug: string,
  id: string,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  const draftKey = keys.kbDraft(slug, id);
  const found = await getMany([keys.kbArticle(slug, id), draftKey, keys.kbLinks(slug, id, 'DRAFT'), keys.kbLinks(slug, id, 'LIVE')]);
  const meta = requireMeta(found, slug, id, precondition);
  const draftItem = found.get(draftKey.sk);
  if (!draftItem) throw articleNotFound();
  const content = contentOf(draftItem);
  if (meta.status === 'published' && !meta.hasUnpublishedChanges) return { item: meta, content };

  const links = extractLinks(content.blocks);
  const targets = internalTargets(links);
  const check = checkPublishable(meta, content, links, await linkTargetStates(slug, targets));
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
  const liveLinks = meta.status === 'published' ? storedLinksOf(found.get(keys.kbLinks(slug, id, 'LIVE').sk)) : [];
  const writes: TransactItems = [
    articlePut(slug, next, sameVersion(meta.version)),
    contentPut(keys.kbLive(slug, id), id, bytes, { revision }),
    linksPut(slug, id, 'LIVE', withCheckResults(links, storedLinksOf(found.get(keys.kbLinks(slug, id, 'DRAFT').sk)))),
    ...backlinkWrites(slug, id, 'LIVE', internalTargets(liveLinks), targets),
  ];
  if (newRevision) {
    const revisionPut = contentPut(keys.kbRevision(slug, id, revision), id, bytes, {
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
  slug: string,
  id: string,
  precondition: VersionPrecondition,
): Promise<{ item: ArticleItem; content: StoredContent }> {
  // The draft is read too, because the response shows it.
  const found = await getMany([keys.kbArticle(slug, id), keys.kbLinks(slug, id, 'LIVE'), keys.kbDraft(slug, id)]);
  const meta = requireMeta(found, slug, id, precondition);
  if (meta.status !== 'published') throw new ConflictError('not_published', 'The article is not published');
  const now = new Date().toISOString();
  const next: ArticleWithDigest = {
    ...meta,
    status: 'unpublished',
    liveRevision: null,
    version: meta.version + 1,
    updatedAt: now,
  };
  const liveLinks = storedLinksOf(found.get(keys.kbLinks(slug, id, 'LIVE').sk));
  try {
    await transact([
      articlePut(slug, next, sameVersion(meta.version)),
      { Delete: { TableName: tableName, Key: keys.kbLive(slug, id) } },
      { Delete: { TableName: tableName, Key: keys.kbLinks(slug, id, 'LIVE') } },
      // Live backlinks say "published content links here": an article with no live content has none.
      ...backlinkWrites(slug, id, 'LIVE', internalTargets(liveLinks), []),
    ]);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
  const draft = found.get(keys.kbDraft(slug, id).sk);
  if (!draft) throw articleNotFound();
  return { item: next, content: contentOf(draft) };
}

// ---------------------------------------------------------------- articles: delete

async function queryKeys(slug: string, prefix: string): Promise<Array<{ pk: string; sk: string }>> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': prefix },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
  return items as Array<{ pk: string; sk: string }>;
}

async function deleteAll(keyList: Array<{ pk: string; sk: string }>): Promise<void> {
  for (let start = 0; start < keyList.length; start += 25) {
    let pending: Array<Record<string, Record<string, unknown>>> | undefined = keyList
      .slice(start, start + 25)
      .map((key) => ({ DeleteRequest: { Key: key } }));
    while (pending && pending.length > 0) {
      const result = await dynamo.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] as typeof pending;
    }
  }
}

export async function deleteArticle(
  slug: string,
  id: string,
  options: { force: boolean; precondition: VersionPrecondition },
): Promise<void> {
  const [found, backlinkKeys] = await Promise.all([
    getMany([keys.kbArticle(slug, id), keys.kbLinks(slug, id, 'DRAFT'), keys.kbLinks(slug, id, 'LIVE')]),
    queryKeys(slug, `${keys.kbBacklinkPrefix(id)}LIVE#`),
  ]);
  const meta = requireMeta(found, slug, id, options.precondition);
  const linkedFrom = [...new Set(backlinkKeys.map((key) => key.sk.split('#').at(-1) as string))].filter((source) => source !== id);
  if (linkedFrom.length > 0 && !options.force)
    throw new ApiError(
      409,
      'article_linked',
      `Published articles link to this article: ${linkedFrom.join(', ')}. Remove the links, or delete with ?force=true`,
      {},
      linkedFrom.map((source) => ({ path: `backlinks.${source}`, message: `published article ${source} links here` })),
    );
  const draftTargets = internalTargets(storedLinksOf(found.get(keys.kbLinks(slug, id, 'DRAFT').sk)));
  const liveTargets = internalTargets(storedLinksOf(found.get(keys.kbLinks(slug, id, 'LIVE').sk)));
  try {
    await transact([
      {
        Delete: {
          TableName: tableName,
          Key: keys.kbArticle(slug, id),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ...sameVersion(meta.version),
        },
      },
      slugRelease(slug, 'article', meta.slug, id),
      {
        Update: {
          TableName: tableName,
          Key: keys.kbCategory(slug, meta.categoryId),
          UpdateExpression: 'ADD articleCount :minusOne',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
      { Delete: { TableName: tableName, Key: keys.kbLinks(slug, id, 'DRAFT') } },
      { Delete: { TableName: tableName, Key: keys.kbLinks(slug, id, 'LIVE') } },
      ...backlinkWrites(slug, id, 'DRAFT', draftTargets, []),
      ...backlinkWrites(slug, id, 'LIVE', liveTargets, []),
    ]);
  } catch (error) {
    if (failedAt(error)?.includes(0)) throw metaFailure(error);
    throw error;
  }
  // The article is gone for every reader now; its content, revisions and the backlink items that
  // pointed at it are cleared after (they are never read without the metadata item).
  const leftovers = [...(await queryKeys(slug, keys.kbDocumentPrefix(id))), ...(await queryKeys(slug, keys.kbBacklinkPrefix(id)))];
  await deleteAll(leftovers);
}

// ---------------------------------------------------------------- revisions, links, backlinks

/**
 * One page of an article's revisions, newest first. Revisions are numbered 1…latestRevision and
 * never deleted, so a page is a known range of numbers whether it starts at an offset or after a
 * cursor's revision: either way the Query reads only the page.
 */
export async function listRevisions(
  slug: string,
  meta: ArticleItem,
  { limit, offset, after }: PageStart,
): Promise<{ items: Item[]; total: number; hasMore: boolean; lastKey: PageKey | undefined; returned: number }> {
  const total = meta.latestRevision;
  if (after && typeof after.revision !== 'number') throw new Error('A cursor for revisions named no revision');
  const newest = after ? Math.min(total, Number(after.revision) - 1) : total - offset;
  if (newest < 1) return { items: [], total, hasMore: false, lastKey: undefined, returned: 0 };
  const oldest = Math.max(1, newest - limit + 1);
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.workspacePk(slug),
        ':from': keys.kbRevision(slug, meta.id, oldest).sk,
        ':to': keys.kbRevision(slug, meta.id, newest).sk,
      },
      ProjectionExpression: 'revision, publishedAt, publishedBy, titleEn, titleAr, summaryEn, summaryAr',
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  return { items: Items, total, hasMore: oldest > 1, lastKey: { revision: oldest }, returned: Items.length };
}

export async function getRevision(
  slug: string,
  id: string,
  revision: number,
): Promise<{ meta: ArticleItem; revision: Item | null } | null> {
  const found = await getMany([keys.kbArticle(slug, id), keys.kbRevision(slug, id, revision)]);
  const meta = found.get(keys.kbArticle(slug, id).sk) as ArticleItem | undefined;
  if (!meta) return null;
  const stored = found.get(keys.kbRevision(slug, id, revision).sk);
  return { meta, revision: stored ?? null };
}

export async function getLinks(
  slug: string,
  id: string,
  view: 'DRAFT' | 'LIVE',
): Promise<{ meta: ArticleItem; links: StoredLink[]; targets: Map<string, LinkTargetState> } | null> {
  const found = await getMany([keys.kbArticle(slug, id), keys.kbLinks(slug, id, view)]);
  const meta = found.get(keys.kbArticle(slug, id).sk) as ArticleItem | undefined;
  if (!meta) return null;
  const links = storedLinksOf(found.get(keys.kbLinks(slug, id, view).sk));
  const targets = await linkTargetStates(slug, internalTargets(links));
  return { meta, links, targets };
}

export async function getBacklinks(
  slug: string,
  id: string,
): Promise<{ meta: ArticleItem; backlinks: Array<{ sourceId: string; view: 'DRAFT' | 'LIVE' }> } | null> {
  const [meta, backlinkKeys] = await Promise.all([getArticleItem(slug, id), queryKeys(slug, keys.kbBacklinkPrefix(id))]);
  if (!meta) return null;
  const backlinks = backlinkKeys.map((key) => {
    const [view, sourceId] = key.sk.slice(keys.kbBacklinkPrefix(id).length).split('#') as ['DRAFT' | 'LIVE', string];
    return { sourceId, view };
  });
  return { meta, backlinks };
}
