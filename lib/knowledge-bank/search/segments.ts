/**
 * A workspace's index as segments: one base (a whole MiniSearch index, written by a full build or a
 * merge) and the deltas written since (each the current documents of the articles one builder batch
 * touched, an article with none being unpublished or deleted). Applying the deltas in order to the
 * base gives the index a fresh build would (test/unit/knowledge-bank-search-segments.test.ts), so a
 * publish writes a few kilobytes instead of the whole index, and a reader that already holds the base
 * applies only the deltas it has not seen. The manifest lists them; see manifest.ts for its guard.
 * Pure: encoding, decoding and the manifest arithmetic; the I/O is in store/segments.ts.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { SearchDocument } from './documents.ts';
import { type ArticleDocuments, applyChanges, compact, loadIndex, type SearchIndex, serialiseIndex } from './search-index.ts';

export interface SegmentRef {
  /** The S3 key of the object. */
  key: string;
  /** Articles it holds (base) or touches (delta). */
  articles: number;
  bytes: number;
}

interface BaseRef extends SegmentRef {
  /** A merged base: the base it was merged from and the last delta folded in (readers holding both skip a reload). */
  mergedFrom: string | null;
  through: string | null;
}

export interface Manifest {
  format: number;
  /** Every change of the manifest adds one; a write is conditioned on the version it read. */
  version: number;
  base: BaseRef;
  deltas: SegmentRef[];
}

/** Deltas are merged into the base once there are this many … */
export const MERGE_AFTER_DELTAS = 24;
/** … or once they hold this many bytes (compressed) … */
const MERGE_AFTER_DELTA_BYTES = 512 * 1024;
/**
 * … or once they would leave discarded documents past this share of an index that applies them
 * (each article a delta touches replaces its documents, and the replaced ones stay until a vacuum),
 * and at least MIN_DISCARDED_ARTICLES of them, as MiniSearch's own vacuum conditions read
 * (its defaults: 10 %, 20 documents, two per bilingual article). Whichever comes first.
 *
 * The merge is the vacuum: it loads the base, applies the deltas and compacts, in the builder. A
 * search instance never vacuums (that decodes every term on the request path); one whose index has
 * gathered as much dirt loads the merged base instead (index-cache.ts), which the builder has always
 * written by then: the articles the deltas touch count every article an instance has discarded.
 */
const MAX_DISCARDED_SHARE = 0.1;
const MIN_DISCARDED_ARTICLES = 10;

/** Articles the listed deltas touch, counted as often as touched: an upper bound of what an index applying them discards. */
function touchedArticles(manifest: Manifest): number {
  return manifest.deltas.reduce((sum, delta) => sum + delta.articles, 0);
}

/**
 * Whether an index applying deltas has discarded as much as a merge is made for: then a merged base
 * (vacuumed by the builder) is worth loading in its place. In documents, two to an article.
 */
export function isPastVacuumPoint(index: SearchIndex): boolean {
  return index.dirtCount >= 2 * MIN_DISCARDED_ARTICLES && index.dirtFactor > MAX_DISCARDED_SHARE;
}

export function needsMerge(manifest: Manifest): boolean {
  const touched = touchedArticles(manifest);
  return (
    manifest.deltas.length >= MERGE_AFTER_DELTAS ||
    manifest.deltas.reduce((sum, delta) => sum + delta.bytes, 0) >= MERGE_AFTER_DELTA_BYTES ||
    (touched >= MIN_DISCARDED_ARTICLES && touched >= MAX_DISCARDED_SHARE * manifest.base.articles)
  );
}

function compress(data: string | Uint8Array): Buffer {
  return brotliCompressSync(data, {
    params: {
      // Quality 4 compresses nearly as well as 11 in a small fraction of the time, and decompresses as fast.
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

const decompress = (body: Uint8Array) => brotliDecompressSync(body).toString('utf8');

export function encodeBase(index: SearchIndex): Buffer {
  return compress(serialiseIndex(index));
}

export function decodeBase(body: Uint8Array): SearchIndex {
  return loadIndex(brotliDecompressSync(body));
}

export type Delta = ArticleDocuments[];

export function encodeDelta(delta: Delta): Buffer {
  return compress(JSON.stringify(delta));
}

export function decodeDelta(body: Uint8Array): Delta {
  return JSON.parse(decompress(body)) as Array<[string, SearchDocument[]]>;
}

/** The base with the deltas applied in order, compacted: what a merge writes as the new base. */
export async function mergedIndex(base: SearchIndex, deltas: readonly Delta[]): Promise<SearchIndex> {
  for (const delta of deltas) applyChanges(base, delta);
  await compact(base);
  return base;
}

/** The manifest after a builder appends a delta to the one it read. */
export function withDelta(manifest: Manifest, delta: SegmentRef): Manifest {
  return { ...manifest, version: manifest.version + 1, deltas: [...manifest.deltas, delta] };
}

/**
 * The manifest after a merge of `merged` (the deltas the merger folded, a prefix of those listed
 * when it read) into `base`, given the manifest as it is now: deltas appended since stay, after the
 * new base. Null when the base changed meanwhile (another merge or a full build won): the merge is
 * void.
 */
export function withMergedBase(current: Manifest, mergedFromBase: string, merged: readonly string[], base: SegmentRef): Manifest | null {
  if (current.base.key !== mergedFromBase) return null;
  const listed = current.deltas.map((delta) => delta.key);
  if (merged.some((key, position) => listed[position] !== key)) return null;
  return {
    ...current,
    version: current.version + 1,
    base: { ...base, mergedFrom: mergedFromBase, through: merged.at(-1) ?? null },
    deltas: current.deltas.slice(merged.length),
  };
}
