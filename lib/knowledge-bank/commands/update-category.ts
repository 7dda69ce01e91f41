/**
 * PATCH a category: rename, move or reorder. The tree read in one Query, the change checked
 * against it (If-Match, names, placement, slug), then one transaction conditional on the versions
 * read.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { meetsPrecondition } from '../../platform/data/conditions.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { checkPlacement, depthIn } from '../category-tree.ts';
import { bothNamesCleared, categoryNotFound, placementError, slugTaken } from '../errors.ts';
import { type CategoryItem, toCategory } from '../record.ts';
import type { Category, CategoryPatch } from '../schemas.ts';
import { CATEGORY_FIELDS, readCategoryTree, writeCategoryChange } from '../store/categories.ts';

export async function updateCategory(
  workspace: string,
  categoryId: string,
  patch: CategoryPatch,
  precondition: VersionPrecondition,
): Promise<Category> {
  const { categories, slugs } = await readCategoryTree(workspace);
  const current = categories.find((c) => c.id === categoryId);
  if (!current) throw categoryNotFound();
  if (!meetsPrecondition(precondition, current.version)) throw new VersionConflictError(current.version);

  const next: CategoryItem = { ...current };
  for (const field of CATEGORY_FIELDS) {
    const value = patch[field];
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (!next.nameEn?.trim() && !next.nameAr?.trim()) throw bothNamesCleared();
  const moving = patch.parentId !== undefined && (patch.parentId ?? null) !== (current.parentId ?? null);
  let newParent: CategoryItem | undefined;
  if (moving) {
    const placement = checkPlacement(categories, categoryId, patch.parentId ?? null);
    if (!placement.ok) throw placementError(placement.reason);
    next.parentId = patch.parentId ?? null;
    newParent = categories.find((c) => c.id === next.parentId);
  }
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    if (slugs.has(patch.slug)) throw slugTaken('category');
    next.slug = patch.slug;
  }
  next.version = current.version + 1;
  next.updatedAt = new Date().toISOString();
  await writeCategoryChange(workspace, { current, next, moving, newParent }, precondition);
  const after = categories.map((c) => (c.id === categoryId ? next : c));
  return toCategory(next as unknown as Record<string, unknown>, depthIn(after, categoryId));
}
