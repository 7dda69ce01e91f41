/**
 * The search function's copy of each workspace's index, kept for the life of the Lambda instance
 * (deliberately module state: it is a cache, not request state). The first search of a workspace
 * loads the base segment and the deltas its manifest lists; later ones revalidate the manifest copy
 * with a conditional GET on its ETag at most once a second (one small request, no body until it
 * changes) and then fetch only what is new: the deltas appended since, applied in place. A merge
 * does not make an instance reload when the new base is the one it holds plus deltas it has applied,
 * unless its index has gathered as many discarded documents as a merge is made for: then it loads
 * the merged base, which the builder has vacuumed. An instance never vacuums: a vacuum decodes every
 * term, the cost of a full decode on the request that happened to trigger it; loading the merged
 * base is a cold load, which decodes none. So a publish shows in search within the builder's delay
 * plus a second.
 *
 * The cache is bounded by bytes, not by a count of workspaces: one help centre of 10,000 bilingual
 * articles takes about 42 MB loaded and 181 MB with every term decoded, one of 100 articles under
 * 1 MB. Each index's heap is estimated as it changes (index-footprint.ts, calibrated by
 * `npm run bench:search-memory`), and the least recently used indexes are dropped while the total
 * is past the budget (config: KB_SEARCH_CACHE_BYTES, by default half the function's memory, 256 MB
 * of the API functions' 512 MB). The index in use is never dropped, even alone past the budget.
 */
import { config } from '../../platform/config.ts';
import { logger } from '../../platform/logger.ts';
import { estimatedIndexBytes, leastRecentlyUsedPastBudget } from './index-footprint.ts';
import { applyChanges, createIndex, INDEX_FORMAT, type SearchIndex } from './search-index.ts';
import { decodeBase, decodeDelta, isPastVacuumPoint, type Manifest } from './segments.ts';
import { allPublishedDocuments } from './store/published-articles.ts';
import { fetchManifestCopy, getSegment } from './store/segments.ts';

const REVALIDATE_AFTER_MS = 1_000;
/**
 * With no index (the workspace had articles before search was deployed and has published nothing
 * since, or a segment expired by the bucket's lifecycle) the instance builds one from the table
 * itself and serves it, looking for the builder's manifest every second as usual but building again
 * only this often.
 */
const REBUILD_AFTER_MS = 60_000;
/** The heap the cached indexes may take together, estimated (index-footprint.ts). */
const CACHE_BUDGET_BYTES = config.searchIndexCacheBytes();

interface Cached {
  index: SearchIndex;
  /** The manifest copy's ETag; undefined for an index built from the table. */
  etag: string | undefined;
  /** The base segment the index started from, and every delta applied to it since, in order. */
  base: string | null;
  applied: string[];
  loadedAt: number;
  checkedAt: number;
}

/** Workspace → its index, least recently used first. */
const cache = new Map<string, Cached>();

/**
 * Keeps `entry` as the most recently used, then drops the least recently used others while the
 * indexes' estimated heap is past the budget. Estimates are read now, so the terms earlier searches
 * decoded count.
 */
function remember(workspace: string, entry: Cached): SearchIndex {
  cache.delete(workspace);
  cache.set(workspace, entry);
  const sizes = [...cache].map(([key, cached]) => [key, estimatedIndexBytes(cached.index)] as const);
  for (const dropped of leastRecentlyUsedPastBudget(sizes, CACHE_BUDGET_BYTES)) {
    cache.delete(dropped);
    logger.info('search index dropped from the cache', { workspace: dropped, budget: CACHE_BUDGET_BYTES });
  }
  return entry.index;
}

/** What the cache holds, least recently used first, with each index's estimated heap (what the tests look at). */
export function cachedIndexes(): Array<{ workspace: string; bytes: number }> {
  return [...cache].map(([workspace, cached]) => ({ workspace, bytes: estimatedIndexBytes(cached.index) }));
}

/** A segment another writer deleted between our manifest read and our GET (a merge): read the manifest again. */
class SegmentGone extends Error {}

async function segment(key: string): Promise<Uint8Array> {
  const body = await getSegment(key);
  if (!body) throw new SegmentGone(key);
  return body;
}

async function applyDeltas(index: SearchIndex, keys: readonly string[]): Promise<void> {
  const bodies = await Promise.all(keys.map(segment));
  for (const body of bodies) applyChanges(index, decodeDelta(body));
}

/** The index `manifest` describes, reusing what `cached` holds where it can. */
async function follow(cached: Cached | undefined, manifest: Manifest): Promise<Pick<Cached, 'index' | 'base' | 'applied'>> {
  const listed = manifest.deltas.map((delta) => delta.key);
  const holdsBase =
    cached?.base === manifest.base.key ||
    (cached?.base != null &&
      manifest.base.mergedFrom === cached.base &&
      manifest.base.through !== null &&
      cached.applied.includes(manifest.base.through) &&
      // A merged base is a vacuumed one: worth a cold load once this index has gathered as much dirt.
      !isPastVacuumPoint(cached.index));
  if (cached && holdsBase) {
    const seen = new Set(cached.applied);
    await applyDeltas(
      cached.index,
      listed.filter((key) => !seen.has(key)),
    );
    return { index: cached.index, base: manifest.base.key, applied: listed };
  }
  const [base, ...deltas] = await Promise.all([manifest.base.key, ...listed].map(segment));
  const index = decodeBase(base as Uint8Array);
  for (const body of deltas) applyChanges(index, decodeDelta(body));
  return { index, base: manifest.base.key, applied: listed };
}

async function builtFromTable(workspace: string, now: number): Promise<SearchIndex> {
  const index = createIndex(await allPublishedDocuments(workspace));
  return remember(workspace, { index, etag: undefined, base: null, applied: [], loadedAt: now, checkedAt: now });
}

/** The workspace's current index. */
export async function searchIndexOf(workspace: string): Promise<SearchIndex> {
  const now = Date.now();
  const cached = cache.get(workspace);
  if (cached && now - cached.checkedAt < REVALIDATE_AFTER_MS) return remember(workspace, cached);
  for (let attempt = 1; attempt <= 2; attempt++) {
    const fetched = await fetchManifestCopy(workspace, cached?.etag);
    if (fetched.kind === 'not-modified' && cached) return remember(workspace, { ...cached, checkedAt: now });
    if (fetched.kind !== 'loaded' || fetched.manifest.format !== INDEX_FORMAT) break;
    try {
      const followed = await follow(cached, fetched.manifest);
      return remember(workspace, { ...followed, etag: fetched.etag, loadedAt: now, checkedAt: now });
    } catch (error) {
      if (!(error instanceof SegmentGone)) throw error;
    }
  }
  if (cached && cached.etag === undefined && now - cached.loadedAt < REBUILD_AFTER_MS)
    return remember(workspace, { ...cached, checkedAt: now });
  return builtFromTable(workspace, now);
}
