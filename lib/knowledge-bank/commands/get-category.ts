/** GET a category: it and its depth, from one Query of the tree. */
import { depthIn } from '../category-tree.ts';
import { categoryNotFound } from '../errors.ts';
import { toCategory } from '../record.ts';
import type { Category } from '../schemas.ts';
import { readCategoryTree } from '../store/categories.ts';

export async function getCategory(workspace: string, categoryId: string): Promise<Category> {
  const { categories } = await readCategoryTree(workspace);
  const found = categories.find((c) => c.id === categoryId);
  if (!found) throw categoryNotFound();
  return toCategory(found as unknown as Record<string, unknown>, depthIn(categories, categoryId));
}
