/** GET categories: the whole tree in display order, each category with its depth (one Query). */
import { flattenTree } from '../category-tree.ts';
import { toCategory } from '../record.ts';
import type { Category } from '../schemas.ts';
import { listCategoryItems } from '../store/categories.ts';

export async function listCategories(workspace: string): Promise<Category[]> {
  const items = await listCategoryItems(workspace);
  return flattenTree(items).map((node) => toCategory(node as unknown as Record<string, unknown>, node.depth));
}
