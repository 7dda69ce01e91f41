/**
 * What changed from one version's content (`against`) to another's (`current`), as lists of ids.
 * Stages and rows: added, removed, renamed (a title changed), moved (their order relative to the
 * others changed: the ids outside a longest common subsequence of the two orders, so moving one
 * stage reports that stage alone). Cells by key (an empty cell equals a missing one); pairs by
 * `stageId/journeyId` (changed: the pinned version changed). Duplicate ids (an error diagnostic)
 * count by their first occurrence.
 */
import type { JourneyCell, JourneyContent } from './content.ts';

// Type aliases (not interfaces) so a group reads as a Record of id lists in isEmptyDiff.
type OrderedChanges = {
  added: string[];
  removed: string[];
  renamed: string[];
  moved: string[];
};

type KeyedChanges = {
  added: string[];
  removed: string[];
  changed: string[];
};

export interface JourneyDiff {
  stages: OrderedChanges;
  rows: OrderedChanges & { retyped: string[] };
  cells: KeyedChanges;
  pairs: KeyedChanges;
}

export function diffContent(current: JourneyContent, against: JourneyContent): JourneyDiff {
  const rows = orderedChanges(current.rows, against.rows);
  const beforeRows = byFirstId(against.rows);
  const retyped = [...byFirstId(current.rows)]
    .filter(([id, row]) => {
      const before = beforeRows.get(id);
      return (
        before !== undefined &&
        (before.type !== row.type || ('kind' in before ? before.kind : undefined) !== ('kind' in row ? row.kind : undefined))
      );
    })
    .map(([id]) => id);
  return {
    stages: orderedChanges(current.stages, against.stages),
    rows: { ...rows, retyped },
    cells: keyedChanges(nonEmptyCells(current), nonEmptyCells(against), (a, b) => canonical(a) === canonical(b)),
    pairs: keyedChanges(pairsOf(current), pairsOf(against), (a, b) => a === b),
  };
}

export function isEmptyDiff(diff: JourneyDiff): boolean {
  const groups: Record<string, string[]>[] = [diff.stages, diff.rows, diff.cells, diff.pairs];
  return groups.every((group) => Object.values(group).every((ids) => ids.length === 0));
}

interface Titled {
  id: string;
  titleEn?: string | undefined;
  titleAr?: string | undefined;
}

function byFirstId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

function orderedChanges(current: readonly Titled[], against: readonly Titled[]): OrderedChanges {
  const now = byFirstId(current);
  const before = byFirstId(against);
  const added = [...now.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !now.has(id));
  const renamed = [...now.values()]
    .filter((item) => {
      const old = before.get(item.id);
      return old !== undefined && ((old.titleEn ?? null) !== (item.titleEn ?? null) || (old.titleAr ?? null) !== (item.titleAr ?? null));
    })
    .map((item) => item.id);

  // Ids in both, in the current order, as positions in the old order: those outside a longest
  // increasing subsequence are the ones that moved relative to the rest.
  const oldPosition = new Map([...before.keys()].map((id, index) => [id, index]));
  const kept = [...now.keys()].filter((id) => oldPosition.has(id));
  const stay = new Set(longestIncreasingSubsequence(kept.map((id) => oldPosition.get(id) ?? 0)).map((index) => kept[index]));
  const moved = kept.filter((id) => !stay.has(id));
  return { added, removed, renamed, moved };
}

/** Indexes (into `values`) of one longest strictly increasing subsequence, O(n log n). */
export function longestIncreasingSubsequence(values: readonly number[]): number[] {
  const tails: number[] = []; // tails[k]: index of the smallest tail of an increasing run of length k+1
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tails[middle] ?? 0] ?? 0) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] ?? -1;
    tails[low] = index;
  });
  const result: number[] = [];
  for (let index = tails.at(-1) ?? -1; index !== -1; index = previous[index] ?? -1) result.push(index);
  return result.reverse();
}

function keyedChanges<T>(current: Map<string, T>, against: Map<string, T>, same: (a: T, b: T) => boolean): KeyedChanges {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [key, value] of current) {
    const old = against.get(key);
    if (old === undefined) added.push(key);
    else if (!same(value, old)) changed.push(key);
  }
  const removed = [...against.keys()].filter((key) => !current.has(key));
  return { added, removed, changed };
}

function nonEmptyCells(content: JourneyContent): Map<string, JourneyCell> {
  return new Map(Object.entries(content.cells).filter(([, cell]) => Object.keys(cell).length > 0));
}

/** `stageId/journeyId` → the pinned version ('' when it follows the published one). */
function pairsOf(content: JourneyContent): Map<string, string> {
  const pairs = new Map<string, string>();
  const seenStages = new Set<string>();
  for (const stage of content.stages) {
    if (seenStages.has(stage.id)) continue;
    seenStages.add(stage.id);
    for (const pair of stage.microJourneyPairs) {
      const key = `${stage.id}/${pair.journeyId}`;
      if (!pairs.has(key)) pairs.set(key, pair.versionId ?? '');
    }
  }
  return pairs;
}

/** JSON with object keys sorted, so two equal cells compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
