/**
 * The search function's copy of each workspace's index, kept for the life of the Lambda instance
 * (deliberately module state: it is a cache, not request state). The first search of a workspace
 * loads the base segment and the deltas its manifest lists; later ones revalidate the manifest copy
 * with a conditional GET on its ETag at most once a second (one small request, no body until it
 * changes) and then fetch only what is new: the deltas appended since, applied in place. A merge
 * does not make an instance reload when the new base is the one it holds plus deltas it has applied.
 * So a publish shows in search within the builder's delay plus a second.
 */
import { allPublishedDocuments } from './published-articles.ts';
import { applyChanges, compact, createIndex, INDEX_FORMAT, type SearchIndex } from './search-index.ts';
import { fetchManifestCopy, getSegment } from './segment-store.ts';
import { decodeBase, decodeDelta, type Manifest } from './segments.ts';

const REVALIDATE_AFTER_MS = 1_000;
/**
 * With no index (the workspace had articles before search was deployed and has published nothing
 * since, or a segment expired by the bucket's lifecycle) the instance builds one from the table
 * itself and serves it, looking for the builder's manifest every second as usual but building again
 * only this often.
 */
const REBUILD_AFTER_MS = 60_000;
/** Indexes kept per instance, least recently used dropped first: memory is bounded by a few large ones. */
const MAX_WORKSPACES = 8;
/** Applied deltas leave discarded documents behind; past this share of the index they are vacuumed. */
const MAX_DIRT_FACTOR = 0.1;

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

const cache = new Map<string, Cached>();

function remember(workspace: string, entry: Cached): SearchIndex {
  cache.delete(workspace);
  cache.set(workspace, entry);
  while (cache.size > MAX_WORKSPACES) cache.delete(cache.keys().next().value as string);
  return entry.index;
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
      cached.applied.includes(manifest.base.through));
  if (cached && holdsBase) {
    const seen = new Set(cached.applied);
    await applyDeltas(
      cached.index,
      listed.filter((key) => !seen.has(key)),
    );
    if (cached.index.dirtFactor > MAX_DIRT_FACTOR) await compact(cached.index);
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
