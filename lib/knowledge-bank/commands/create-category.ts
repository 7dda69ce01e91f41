/**
 * POST a category: the tree read in one Query, its placement and slug decided over it, then one
 * transaction conditional on the parent as read; safe to retry with an Idempotency-Key (the
 * category as first answered is remembered).
 */
import { randomUUID } from 'node:crypto';
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { checkPlacement } from '../category-tree.ts';
import { placementError, slugTaken } from '../errors.ts';
import { type CategoryItem, toCategory } from '../record.ts';
import type { Category, CategoryCreate } from '../schemas.ts';
import { firstFreeSlug, slugBase } from '../slugs.ts';
import { insertCategory, readCategoryTree } from '../store/categories.ts';

export async function createCategory(
  workspace: string,
  body: CategoryCreate,
  idempotency: IdempotentRequest | undefined,
): Promise<{ category: Category; replayed: boolean }> {
  const { categories, slugs } = await readCategoryTree(workspace);
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
  const created = toCategory(item as unknown as Record<string, unknown>, placement.depth);
  const { response, replayed } = await insertCategory(workspace, item, parent, created, idempotency);
  return { category: response, replayed };
}
