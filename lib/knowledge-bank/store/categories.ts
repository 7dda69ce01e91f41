/**
 * Categories: `KBCAT#` items, a tree at most 3 levels deep, next to their slug claims so that one
 * Query reads both. list: 1 Query of the categories. read the tree: 1 Query of categories and slug
 * claims. insert, change, remove: 1 transaction conditional on the versions read (the commands in
 * lib/knowledge-bank/commands/ read the tree first and decide).
 */

import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { counterAdd, type NamedWrites, TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { kbCategoryEntity, kbCategorySlugEntity } from '../entities.ts';
import { categoryNotEmpty, categoryNotFound, slugTaken, treeChanged } from '../errors.ts';
import type { CategoryItem } from '../record.ts';
import { queryPrefix } from './items.ts';
import { slugClaim, slugRelease } from './slug-claims.ts';

/** Every category and every category slug in use (one Query). */
export async function readCategoryTree(workspace: string): Promise<{ categories: CategoryItem[]; slugs: Set<string> }> {
  // Categories (KBCAT#…) and their slug claims (KBCATSLUG#…) are adjacent: one range, one Query.
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': workspacePk(workspace),
      ':from': kbCategoryEntity.keys.treeRange.from,
      ':to': kbCategoryEntity.keys.treeRange.to,
    },
    ConsistentRead: true,
  });
  const categories: CategoryItem[] = [];
  const slugs = new Set<string>();
  for (const item of items) {
    if (item.entity === kbCategoryEntity.name) categories.push(item as unknown as CategoryItem);
    else if (item.entity === kbCategorySlugEntity.name) slugs.add(item.slug as string);
  }
  return { categories, slugs };
}

/** Every category item (one Query of the `KBCAT#` prefix). */
export async function listCategoryItems(workspace: string): Promise<CategoryItem[]> {
  return (await queryPrefix(workspace, kbCategoryEntity.keys.prefix)) as unknown as CategoryItem[];
}

/** Guards a parent read in the tree: unchanged since, so the depth decided on still holds. */
function parentUnchanged(workspace: string, parent: CategoryItem): TransactWrite {
  return counterAdd(kbCategoryEntity.keys.category(workspace, parent.id), 'childCount', 1, {
    condition: { expression: '#version = :version', names: { '#version': 'version' }, values: { ':version': parent.version } },
  });
}

/**
 * The new category, its slug claim and (when it has one) its parent's child count, conditional on
 * the parent being as read, in one transaction; `response` is what an Idempotency-Key remembers.
 */
export async function insertCategory<R>(
  workspace: string,
  item: CategoryItem,
  parent: CategoryItem | undefined,
  response: R,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: R; replayed: boolean }> {
  const writes: NamedWrites = {
    category: {
      Put: {
        TableName: tableName,
        Item: { ...kbCategoryEntity.keys.category(workspace, item.id), entity: kbCategoryEntity.name, ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    slug: slugClaim(workspace, 'category', item.slug, item.id),
    parent: parent && parentUnchanged(workspace, parent),
  };
  try {
    return await createOnce(workspace, writes, response, idempotency, { contended: treeChanged });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('slug')) throw slugTaken('category');
    throw treeChanged();
  }
}

export const CATEGORY_FIELDS = ['nameEn', 'nameAr', 'descriptionEn', 'descriptionAr', 'position', 'visibility'] as const;
/** What a PATCH may change: the editable fields, the parent (a move) and the slug. */
const CATEGORY_OWNED = ['parentId', 'slug', ...CATEGORY_FIELDS] as const;

/** A category change: the item as read, as it becomes, and the parent it moves under (if it moves). */
export interface CategoryChange {
  current: CategoryItem;
  next: CategoryItem;
  moving: boolean;
  newParent: CategoryItem | undefined;
}

/**
 * One transaction: the owned fields (from an allow-list) if the item is still at the version read,
 * the parents' child counts of a move (the new parent as read) and the slug claim of a rename.
 */
export async function writeCategoryChange(
  workspace: string,
  { current, next, moving, newParent }: CategoryChange,
  precondition: VersionPrecondition,
): Promise<void> {
  const id = current.id;
  const renamed = next.slug !== current.slug;
  // Only the fields a PATCH owns are set; the counters (articleCount, childCount), which other
  // transactions ADD to without a version bump, are left alone. A cleared field is stored as null,
  // as a create stores it.
  const changes = update();
  for (const field of [...CATEGORY_OWNED, 'version', 'updatedAt'] as const) changes.set(field, next[field]);
  try {
    await transact(
      {
        // The item as it is now (on a failed condition) tells a delete (404) from a concurrent change (409) without a read.
        category: {
          Update: {
            TableName: tableName,
            Key: kbCategoryEntity.keys.category(workspace, id),
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
            ? counterAdd(kbCategoryEntity.keys.category(workspace, current.parentId), 'childCount', -1, {
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
}

/** One transaction: the category if still at the version read and empty, its slug claim, its parent's child count. */
export async function removeCategory(workspace: string, current: CategoryItem): Promise<void> {
  const id = current.id;
  const writes: NamedWrites = {
    category: {
      Delete: {
        TableName: tableName,
        Key: kbCategoryEntity.keys.category(workspace, id),
        // Empty now, by the counters kept in the same transactions that fill it.
        ConditionExpression:
          '#version = :version AND (attribute_not_exists(articleCount) OR articleCount <= :zero) AND (attribute_not_exists(childCount) OR childCount <= :zero)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': current.version, ':zero': 0 },
      },
    },
    slug: slugRelease(workspace, 'category', current.slug, id),
    parent: current.parentId ? counterAdd(kbCategoryEntity.keys.category(workspace, current.parentId), 'childCount', -1) : undefined,
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
