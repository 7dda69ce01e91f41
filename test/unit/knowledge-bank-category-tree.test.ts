/** Category tree rules: three levels, no cycles, and one display order. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPlacement, flattenTree, type TreeNode } from '../../lib/knowledge-bank/category-tree.ts';

const node = (id: string, parentId: string | null, position = 0, createdAt = '2026-01-01T00:00:00.000Z'): TreeNode => ({
  id,
  parentId,
  position,
  createdAt,
});

// root a > b > c (three levels), root d
const tree = [node('c', 'b'), node('d', null, 2), node('b', 'a'), node('a', null, 1)];

describe('knowledge-bank category tree', () => {
  it('flattens parent before children, siblings by position then creation', () => {
    const nodes = [
      node('x2', 'x', 1),
      node('y', null, 0, '2026-01-02T00:00:00.000Z'),
      node('x', null, 0, '2026-01-01T00:00:00.000Z'),
      node('x1', 'x', 0),
    ];
    expect(flattenTree(nodes).map((n) => [n.id, n.depth])).toEqual([
      ['x', 1],
      ['x1', 2],
      ['x2', 2],
      ['y', 1],
    ]);
  });

  it('places a new category at depth 1 to 3 and refuses a 4th level', () => {
    expect(checkPlacement(tree, 'new', null)).toEqual({ ok: true, depth: 1 });
    expect(checkPlacement(tree, 'new', 'b')).toEqual({ ok: true, depth: 3 });
    expect(checkPlacement(tree, 'new', 'c')).toEqual({ ok: false, reason: 'too_deep' });
    expect(checkPlacement(tree, 'new', 'nope')).toEqual({ ok: false, reason: 'parent_not_found' });
  });

  it('counts the subtree a move carries', () => {
    expect(checkPlacement(tree, 'b', 'd')).toEqual({ ok: true, depth: 2 }); // b > c under d: 3 levels
    expect(checkPlacement([...tree, node('e', 'd')], 'b', 'e')).toEqual({ ok: false, reason: 'too_deep' });
    expect(checkPlacement(tree, 'b', null)).toEqual({ ok: true, depth: 1 });
  });

  it('refuses a move under itself or its own descendant', () => {
    expect(checkPlacement(tree, 'a', 'a')).toEqual({ ok: false, reason: 'cycle' });
    expect(checkPlacement(tree, 'a', 'c')).toEqual({ ok: false, reason: 'cycle' });
  });
});

/** Random forests of up to 3 levels: each node's parent is an earlier node of lower depth. */
const forest = fc
  .array(fc.record({ parentPick: fc.nat(), position: fc.integer({ min: 0, max: 5 }), root: fc.boolean() }), { maxLength: 30 })
  .map((specs) => {
    const nodes: Array<TreeNode & { level: number }> = [];
    specs.forEach((spec, i) => {
      const candidates = nodes.filter((n) => n.level < 3);
      const parent = spec.root || candidates.length === 0 ? undefined : candidates[spec.parentPick % candidates.length];
      nodes.push({ ...node(`n${i}`, parent?.id ?? null, spec.position), level: parent ? parent.level + 1 : 1 });
    });
    return nodes;
  });

describe('knowledge-bank category tree (properties)', () => {
  it('flattening keeps every node once, puts parents first and orders siblings by position', () => {
    fc.assert(
      fc.property(forest, (nodes) => {
        const shuffled = [...nodes].reverse();
        const flat = flattenTree(shuffled);
        expect(flat.map((n) => n.id).sort()).toEqual(nodes.map((n) => n.id).sort());
        const index = new Map(flat.map((n, i) => [n.id, i]));
        for (const n of flat) {
          expect(n.depth).toBe(n.level);
          if (n.parentId) expect(index.get(n.parentId)).toBeLessThan(index.get(n.id) ?? -1);
        }
        for (let i = 1; i < flat.length; i++) {
          const [prev, current] = [flat[i - 1], flat[i]];
          if (prev && current && prev.parentId === current.parentId) expect(prev.position).toBeLessThanOrEqual(current.position);
        }
      }),
    );
  });

  it('any placement it accepts keeps the tree at most 3 levels deep and acyclic', () => {
    fc.assert(
      fc.property(forest, fc.nat(), fc.nat(), (nodes, movePick, parentPick) => {
        if (nodes.length === 0) return;
        const moved = nodes[movePick % nodes.length];
        const parent = parentPick % (nodes.length + 1) === nodes.length ? null : nodes[parentPick % (nodes.length + 1)];
        if (!moved) return;
        const check = checkPlacement(nodes, moved.id, parent?.id ?? null);
        if (!check.ok) return;
        const after = nodes.map((n) => (n.id === moved.id ? { ...n, parentId: parent?.id ?? null } : n));
        const flat = flattenTree(after);
        expect(flat).toHaveLength(nodes.length);
        expect(Math.max(...flat.map((n) => n.depth))).toBeLessThanOrEqual(3);
      }),
    );
  });
});
