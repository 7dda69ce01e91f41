/**
 * Micro-journey cycles: a journey reached again by following pairs, itself included. A pair
 * without `versionId` follows the paired journey's published version, a pinned pair that version;
 * either way the next step is the pairs of the version followed. The caller supplies those pairs
 * as plain data (loaded level by level), so this stays a pure graph walk.
 */

export interface PairTarget {
  journeyId: string;
  versionId?: string | undefined;
}

/**
 * The pairs of the version a pair target follows; `undefined` when that journey or version does
 * not exist, was not loaded, or follows nothing (never published): a dead end, not a cycle.
 */
export type PairsOf = (target: PairTarget) => readonly PairTarget[] | undefined;

export interface CycleFinding<Origin> {
  /** The root pair the cycle was found through (the caller's handle: a stage and pair index). */
  origin: Origin;
  /** Journey ids along the cycle, starting at the root pair's journey, ending with the one reached again. */
  path: string[];
}

const nodeKey = (target: PairTarget) => `${target.journeyId}/${target.versionId ?? 'published'}`;

/**
 * Walks from every root pair and reports each one that reaches a journey already on its own path.
 * Fully explored nodes keep the set of journeys they reach, so shared sub-graphs are walked once:
 * meeting one again is a cycle exactly when that set meets the current path.
 */
export function findMicroJourneyCycles<Origin>(
  rootJourneyId: string | null,
  rootPairs: readonly { origin: Origin; target: PairTarget }[],
  pairsOf: PairsOf,
): CycleFinding<Origin>[] {
  const reachableFrom = new Map<string, ReadonlySet<string>>();
  const findings: CycleFinding<Origin>[] = [];

  for (const { origin, target } of rootPairs) {
    const path: string[] = rootJourneyId === null ? [] : [rootJourneyId];
    const cycle = walk(target, path, reachableFrom, pairsOf);
    if (cycle) findings.push({ origin, path: cycle });
  }
  return findings;
}

/** Depth-first; returns the cycle's journey path, or null after recording what `target` reaches. */
function walk(target: PairTarget, path: string[], reachableFrom: Map<string, ReadonlySet<string>>, pairsOf: PairsOf): string[] | null {
  if (path.includes(target.journeyId)) return [...path.slice(path.indexOf(target.journeyId)), target.journeyId];

  const key = nodeKey(target);
  const known = reachableFrom.get(key);
  if (known) {
    const hit = path.find((journeyId) => known.has(journeyId));
    // The explored sub-graph reaches a journey on this path: report the cycle through it.
    return hit === undefined ? null : [...path.slice(path.indexOf(hit)), target.journeyId, '…', hit];
  }

  path.push(target.journeyId);
  const reached = new Set<string>([target.journeyId]);
  for (const next of pairsOf(target) ?? []) {
    const cycle = walk(next, path, reachableFrom, pairsOf);
    if (cycle) {
      path.pop();
      return cycle;
    }
    for (const journeyId of reachableFrom.get(nodeKey(next)) ?? [next.journeyId]) reached.add(journeyId);
  }
  path.pop();
  reachableFrom.set(key, reached);
  return null;
}
