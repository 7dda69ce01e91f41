/** DELETE a category: only an empty one goes. The tree read in one Query, then one conditional transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { meetsPrecondition } from '../../platform/data/conditions.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { categoryNotEmpty, categoryNotFound } from '../errors.ts';
import { readCategoryTree, removeCategory } from '../store/categories.ts';

export async function deleteCategory(workspace: string, categoryId: string, precondition: VersionPrecondition): Promise<void> {
  const { categories } = await readCategoryTree(workspace);
  const current = categories.find((c) => c.id === categoryId);
  if (!current) throw categoryNotFound();
  if (!meetsPrecondition(precondition, current.version)) throw new VersionConflictError(current.version);
  const children = categories.filter((c) => c.parentId === categoryId).length;
  if (children > 0 || (current.articleCount ?? 0) > 0) throw categoryNotEmpty(children, current.articleCount ?? 0);
  await removeCategory(workspace, current);
}
