/**
 * Categories: `KBCAT#` items, a tree at most 3 levels deep, next to their slug claims so that one
 * Query reads both. list, get: 1 Query of the tree. create, patch, delete: that Query, then 1
 * transaction conditional on the versions read.
 */

import { randomUUID } from 'node:crypto';
import { tableName } from '../../platform/data/client.ts';
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { counterAdd, type NamedWrites, TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { BadRequestError, ConflictError, VersionConflictError } from '../../platform/errors.ts';
import { checkPlacement, flattenTree } from '../category-tree.ts';
import { categoryNotFound, slugTaken } from '../errors.ts';
import { type CategoryItem, KB_ENTITY, toCategory } from '../record.ts';
import type { Category, CategoryCreate, CategoryPatch } from '../schemas.ts';
import { firstFreeSlug, slugBase } from '../slugs.ts';
import { queryPrefix } from './items.ts';
import { slugClaim, slugRelease } from './slug-claims.ts';

async function readCategories(workspace: string): Promise<{ categories: CategoryItem[]; slugs: Set<string> }> {
  // Categories (KBCAT#…) and their slug claims (KBCATSLUG#…) are adjacent: one range, one Query.
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.workspacePk(workspace),
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

export async function listCategories(workspace: string): Promise<Category[]> {
  const items = await queryPrefix(workspace, keys.kbCategoryPrefix);
  return flattenTree(items as unknown as CategoryItem[]).map((node) => toCategory(node as unknown as Record<string, unknown>, node.depth));
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
function parentUnchanged(workspace: string, parent: CategoryItem): TransactWrite {
  return counterAdd(keys.kbCategory(workspace, parent.id), 'childCount', 1, {
    condition: { expression: '#version = :version', names: { '#version': 'version' }, values: { ':version': parent.version } },
  });
}

const treeChanged = () => new ConflictError('tree_changed', 'The category tree changed while this request ran; retry it');

export async function createCategory(
  workspace: string,
  body: CategoryCreate,
  idempotency: IdempotentRequest | undefined,
): Promise<{ category: Category; replayed: boolean }> {
  const { categories, slugs } = await readCategories(workspace);
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
  const parent = parentId ? categories.find((c) => c.id === parentId) : undefined;
  const writes: NamedWrites = {
    category: {
      Put: {
        TableName: tableName,
        Item: { ...keys.kbCategory(workspace, id), entity: KB_ENTITY.category, ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    slug: slugClaim(workspace, 'category', categorySlug, id),
    parent: parent && parentUnchanged(workspace, parent),
  };
  try {
    const { response, replayed } = await createOnce(
      workspace,
      writes,
      toCategory(item as unknown as Record<string, unknown>, placement.depth),
      idempotency,
      { contended: treeChanged },
    );
    return { category: response, replayed };
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('slug')) throw slugTaken('category');
    throw treeChanged();
  }
}

/** One category with its depth (one Query of the tree); null when absent. */
export async function findCategory(workspace: string, id: string): Promise<Category | null> {
  const { categories } = await readCategories(workspace);
  const found = categories.find((c) => c.id === id);
  return found ? toCategory(found as unknown as Record<string, unknown>, depthIn(categories, id)) : null;
}

const CATEGORY_FIELDS = ['nameEn', 'nameAr', 'descriptionEn', 'descriptionAr', 'position', 'visibility'] as const;
/** What a PATCH may change: the editable fields, the parent (a move) and the slug. */
const CATEGORY_OWNED = ['parentId', 'slug', ...CATEGORY_FIELDS] as const;

export async function updateCategory(
  workspace: string,
  id: string,
  patch: CategoryPatch,
  precondition: VersionPrecondition,
): Promise<Category> {
  const { categories, slugs } = await readCategories(workspace);
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
  const moving = patch.parentId !== undefined && (patch.parentId ?? null) !== (current.parentId ?? null);
  let newParent: CategoryItem | undefined;
  if (moving) {
    const placement = checkPlacement(categories, id, patch.parentId ?? null);
    if (!placement.ok) throw placementError(placement.reason);
    next.parentId = patch.parentId ?? null;
    newParent = categories.find((c) => c.id === next.parentId);
  }
  const renamed = patch.slug !== undefined && patch.slug !== current.slug;
  if (renamed) {
    if (slugs.has(patch.slug as string)) throw slugTaken('category');
    next.slug = patch.slug as string;
  }
  next.version = current.version + 1;
  next.updatedAt = new Date().toISOString();
  // Only the fields a PATCH owns are set (from an allow-list); the counters (articleCount,
  // childCount), which other transactions ADD to without a version bump, are left alone. A
  // cleared field is stored as null, as a create stores it.
  const changes = update();
  for (const field of [...CATEGORY_OWNED, 'version', 'updatedAt'] as const) changes.set(field, next[field]);
  try {
    await transact(
      {
        // The item as it is now (on a failed condition) tells a delete (404) from a concurrent change (409) without a read.
        category: {
          Update: {
            TableName: tableName,
            Key: keys.kbCategory(workspace, id),
            ...changes.build({
              expression: '#version = :readVersion',
              names: { '#version': 'version' },
              values: { ':readVersion': current.version },
            }),
          },
        },
        newParent: newParent && parentUnchanged(workspace, newParent),
        oldParent:
          moving && current.parentId
            ? counterAdd(keys.kbCategory(workspace, current.parentId), 'childCount', -1, {
                condition: { expression: 'attribute_exists(pk)' },
              })
            : undefined,
        slugClaim: renamed && slugClaim(workspace, 'category', next.slug, id),
        slugRelease: renamed && slugRelease(workspace, 'category', current.slug, id),
      },
      { contended: treeChanged },
    );
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('category')) {
      const version = error.current('category')?.version;
      if (version === undefined) throw categoryNotFound();
      // Changed by someone else since the read: with If-Match that is a conflict; without, the
      // tree this move or slug was checked against may be stale, so the client retries.
      if (precondition && !precondition.anyVersion) throw new VersionConflictError(Number(version));
      throw treeChanged();
    }
    if (error.failed('slugClaim')) throw slugTaken('category');
    throw treeChanged();
  }
  const after = categories.map((c) => (c.id === id ? next : c));
  return toCategory(next as unknown as Record<string, unknown>, depthIn(after, id));
}

export async function deleteCategory(workspace: string, id: string, precondition: VersionPrecondition): Promise<void> {
  const { categories } = await readCategories(workspace);
  const current = categories.find((c) => c.id === id);
  if (!current) throw categoryNotFound();
  if (!meetsPrecondition(precondition, current.version)) throw new VersionConflictError(current.version);
  const children = categories.filter((c) => c.parentId === id).length;
  if (children > 0 || (current.articleCount ?? 0) > 0) throw categoryNotEmpty(children, current.articleCount ?? 0);
  const writes: NamedWrites = {
    category: {
      Delete: {
        TableName: tableName,
        Key: keys.kbCategory(workspace, id),
        // Empty now, by the counters kept in the same transactions that fill it.
        ConditionExpression:
          '#version = :version AND (attribute_not_exists(articleCount) OR articleCount <= :zero) AND (attribute_not_exists(childCount) OR childCount <= :zero)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': current.version, ':zero': 0 },
      },
    },
    slug: slugRelease(workspace, 'category', current.slug, id),
    parent: current.parentId ? counterAdd(keys.kbCategory(workspace, current.parentId), 'childCount', -1) : undefined,
  };
  try {
    await transact(writes);
  } catch (error) {
    if (!(error instanceof TransactionCancelledError && error.failed('category'))) throw error;
    const item = error.current('category');
    if (!item) throw categoryNotFound();
    const articleCount = Number(item.articleCount ?? 0);
    const childCount = Number(item.childCount ?? 0);
    if (articleCount > 0 || childCount > 0) throw categoryNotEmpty(childCount, articleCount);
    throw new VersionConflictError(Number(item.version));
  }
}

function categoryNotEmpty(categories: number, articles: number): ConflictError {
  return new ConflictError(
    'category_not_empty',
    `The category still holds ${categories} categories and ${articles} articles; move or delete them first`,
  );
}
