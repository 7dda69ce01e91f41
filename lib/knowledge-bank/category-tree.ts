/**
 * Category tree rules: at most three levels, no cycles, and one display order (parent before its
 * children, siblings by `position`). The whole tree of a workspace is small (it is navigation, not
 * content), so the store reads it in one Query and these functions decide over it in memory.
 */

const MAX_CATEGORY_DEPTH = 3;

export interface TreeNode {
  id: string;
  parentId: string | null;
  position: number;
  /** Tie-break for equal positions, so the order never depends on storage order. */
  createdAt: string;
}

function childrenByParent<T extends TreeNode>(nodes: readonly T[]): Map<string | null, T[]> {
  const ids = new Set(nodes.map((node) => node.id));
  const children = new Map<string | null, T[]>();
  for (const node of nodes) {
    // A parent that is gone (never expected; deletes refuse non-empty categories) shows as a root.
    const parent = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  for (const list of children.values()) {
    list.sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }
  return children;
}

/** The tree in display order, each node with its depth (1 = top level). */
export function flattenTree<T extends TreeNode>(nodes: readonly T[]): Array<T & { depth: number }> {
  const children = childrenByParent(nodes);
  const result: Array<T & { depth: number }> = [];
  const visited = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    for (const node of children.get(parent) ?? []) {
      if (visited.has(node.id)) continue; // a stored cycle must not hang a read
      visited.add(node.id);
      result.push({ ...node, depth });
      walk(node.id, depth + 1);
    }
  };
  walk(null, 1);
  return result;
}

/** Levels in the subtree rooted at `id`, counting itself (a leaf is 1). */
function subtreeHeight(children: Map<string | null, TreeNode[]>, id: string, guard = 0): number {
  if (guard > MAX_CATEGORY_DEPTH * 4) return Number.POSITIVE_INFINITY;
  let height = 1;
  for (const child of children.get(id) ?? []) height = Math.max(height, 1 + subtreeHeight(children, child.id, guard + 1));
  return height;
}

export type PlacementCheck = { ok: true; depth: number } | { ok: false; reason: 'parent_not_found' | 'cycle' | 'too_deep' };

/**
 * Whether `id` (a new category when absent from `nodes`) may sit under `parentId`. A move carries
 * its whole subtree, so the subtree's height counts, and a move under its own descendant is a cycle.
 */
export function checkPlacement(nodes: readonly TreeNode[], id: string, parentId: string | null): PlacementCheck {
  const children = childrenByParent(nodes);
  const height = nodes.some((node) => node.id === id) ? subtreeHeight(children, id) : 1;
  if (parentId === null) return height <= MAX_CATEGORY_DEPTH ? { ok: true, depth: 1 } : { ok: false, reason: 'too_deep' };
  const byId = new Map(nodes.map((node) => [node.id, node]));
  if (!byId.has(parentId)) return { ok: false, reason: 'parent_not_found' };
  let ancestor: TreeNode | undefined = byId.get(parentId);
  let parentDepth = 0;
  while (ancestor) {
    if (ancestor.id === id) return { ok: false, reason: 'cycle' };
    parentDepth++;
    if (parentDepth > nodes.length) return { ok: false, reason: 'cycle' };
    ancestor = ancestor.parentId === null ? undefined : byId.get(ancestor.parentId);
  }
  const depth = parentDepth + 1;
  return depth + height - 1 <= MAX_CATEGORY_DEPTH ? { ok: true, depth } : { ok: false, reason: 'too_deep' };
}

/** A category's depth in the tree (1 = top level, also for one not found). */
export function depthIn(nodes: readonly TreeNode[], id: string): number {
  return flattenTree(nodes).find((node) => node.id === id)?.depth ?? 1;
}
