import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMicroJourneyCycles, type PairTarget } from '../../lib/journeys/cycles.ts';

/** A graph of journeys where each follows the published pairs listed for it. */
function graph(edges: Record<string, string[]>) {
  return (target: PairTarget) => edges[target.journeyId]?.map((journeyId) => ({ journeyId }));
}

describe('micro-journey cycles', () => {
  it('finds no cycle in a tree or a diamond', () => {
    const pairsOf = graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] });
    expect(findMicroJourneyCycles('root', [{ origin: 0, target: { journeyId: 'a' } }], pairsOf)).toEqual([]);
  });

  it('finds the root reached again and reports the path', () => {
    const pairsOf = graph({ a: ['b'], b: ['root'] });
    expect(findMicroJourneyCycles('root', [{ origin: 7, target: { journeyId: 'a' } }], pairsOf)).toEqual([
      { origin: 7, path: ['root', 'a', 'b', 'root'] },
    ]);
  });

  it('finds a cycle further down that does not pass through the root', () => {
    const pairsOf = graph({ a: ['b'], b: ['c'], c: ['b'] });
    expect(findMicroJourneyCycles(null, [{ origin: 0, target: { journeyId: 'a' } }], pairsOf)).toEqual([
      { origin: 0, path: ['b', 'c', 'b'] },
    ]);
  });

  it('follows a pinned version rather than the published one', () => {
    const pairsOf = (target: PairTarget) =>
      target.journeyId === 'a' ? (target.versionId === 'v2' ? [{ journeyId: 'root' }] : []) : undefined;
    expect(findMicroJourneyCycles('root', [{ origin: 0, target: { journeyId: 'a' } }], pairsOf)).toEqual([]);
    expect(findMicroJourneyCycles('root', [{ origin: 0, target: { journeyId: 'a', versionId: 'v2' } }], pairsOf)).toHaveLength(1);
  });

  it('reports a cycle met through an already explored sub-graph from another root pair', () => {
    // x is explored from the first pair (no cycle there), then reached from y, which x leads back to.
    const pairsOf = graph({ x: ['z'], z: [], y: ['x'] });
    const withBack = (target: PairTarget) => (target.journeyId === 'z' ? [{ journeyId: 'y' }] : pairsOf(target));
    const found = findMicroJourneyCycles(
      null,
      [
        { origin: 'first', target: { journeyId: 'x' } },
        { origin: 'second', target: { journeyId: 'y' } },
      ],
      withBack,
    );
    expect(found.map((f) => f.origin)).toEqual(['first', 'second']);
  });

  it('agrees with a brute-force search on random graphs (property)', () => {
    const nodes = ['r', 'a', 'b', 'c', 'd', 'e'];
    const arbitraryGraph = fc.dictionary(fc.constantFrom(...nodes), fc.uniqueArray(fc.constantFrom(...nodes), { maxLength: 3 }));
    fc.assert(
      fc.property(arbitraryGraph, fc.uniqueArray(fc.constantFrom(...nodes.slice(1)), { minLength: 1, maxLength: 3 }), (edges, roots) => {
        const pairsOf = graph(edges);
        const found = new Set(
          findMicroJourneyCycles(
            'r',
            roots.map((journeyId) => ({ origin: journeyId, target: { journeyId } })),
            pairsOf,
          ).map((f) => f.origin),
        );
        for (const root of roots) expect(found.has(root), `${root} in ${JSON.stringify(edges)}`).toBe(reachesCycle(edges, ['r'], root));
      }),
      { numRuns: 500 },
    );
  });
});

/** Naive: every simple path from `node`; true when one repeats a journey on the path. */
function reachesCycle(edges: Record<string, string[]>, path: string[], node: string): boolean {
  if (path.includes(node)) return true;
  return (edges[node] ?? []).some((next) => reachesCycle(edges, [...path, node], next));
}
