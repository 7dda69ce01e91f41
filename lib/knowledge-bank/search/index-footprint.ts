/**
 * How much heap a search index takes, so the search function can bound its index cache by bytes
 * (index-cache.ts). Measured, not guessed: `npm run bench:search-memory` loads indexes of 500 to
 * 10,000 bilingual articles, collects garbage and reads `process.memoryUsage()` (heap plus array
 * buffers) lazily loaded, after queries and fully decoded, and fits the costs below to what it reads;
 * it prints its own estimate beside each measurement (docs/knowledge-bank.md has the table).
 *
 * An index holds: its documents (ids, stored fields, field lengths), its terms (MiniSearch's radix
 * tree, and a postings object per term), and its postings, either still as bytes of the decompressed
 * base segment (index-codec.ts decodes a term's postings when a query first reaches it, and the
 * segment's buffer stays alive until the last term is decoded) or decoded into Maps. The counts are
 * kept as the index changes, never by walking it: a walk of 3.7 million postings per search would
 * cost more than the search.
 */

/** Heap per document (its id maps, stored fields, field lengths): 900 bytes, fitted 500–10,000 articles. */
const BYTES_PER_DOCUMENT = 900;
/** Heap per term (a radix-tree node, its key, its postings object): 500 bytes. */
const BYTES_PER_TERM = 500;
/** Heap per decoded posting (a document id → frequency entry in a Map): 40 bytes. */
const BYTES_PER_POSTING = 40;

interface Footprint {
  /** Bytes of the decompressed base segment its undecoded terms still point into (0 for an index built in memory). */
  segmentBytes: number;
  /** Terms whose postings are still bytes of that segment. */
  undecodedTerms: number;
  /** Postings decoded, or added in memory (a build, a delta's documents); discarded ones stay until a vacuum. */
  postings: number;
}

interface IndexShape {
  readonly documentCount: number;
  readonly termCount: number;
}

const footprints = new WeakMap<IndexShape, Footprint>();

/** The counts of `index`, made on first use (an index built in memory starts with none decoded lazily). */
export function footprintOf(index: IndexShape): Footprint {
  let footprint = footprints.get(index);
  if (!footprint) {
    footprint = { segmentBytes: 0, undecodedTerms: 0, postings: 0 };
    footprints.set(index, footprint);
  }
  return footprint;
}

/** The heap `index` takes now, by the costs above. */
export function estimatedIndexBytes(index: IndexShape): number {
  const { segmentBytes, undecodedTerms, postings } = footprintOf(index);
  return (
    BYTES_PER_DOCUMENT * index.documentCount +
    BYTES_PER_TERM * index.termCount +
    BYTES_PER_POSTING * postings +
    (undecodedTerms > 0 ? segmentBytes : 0)
  );
}

/**
 * Which entries to drop, least recently used first (`entries` is in that order, most recent last), so
 * that the others' bytes add up to at most `budget`. The most recent is never dropped, even alone past it.
 */
export function leastRecentlyUsedPastBudget<Key>(entries: ReadonlyArray<readonly [Key, number]>, budget: number): Key[] {
  let total = entries.reduce((sum, [, bytes]) => sum + bytes, 0);
  const dropped: Key[] = [];
  for (const [key, bytes] of entries.slice(0, -1)) {
    if (total <= budget) break;
    dropped.push(key);
    total -= bytes;
  }
  return dropped;
}
