/**
 * The search function's copy of each workspace's index, kept for the life of the Lambda instance
 * (deliberately module state: it is a cache, not request state). The first search of a workspace
 * loads the index from S3; later ones revalidate it with a conditional GET on its ETag at most once
 * a second, which costs one small request and no body until the builder writes a new index. So a
 * publish shows in search within the builder's delay plus a second.
 */
import { fetchIndex } from './index-store.ts';
import { allPublishedDocuments } from './published-articles.ts';
import { createIndex, type SearchIndex } from './search-index.ts';

const REVALIDATE_AFTER_MS = 1_000;
/**
 * With no index object (the workspace had articles before search was deployed and has published
 * nothing since, or the bucket's lifecycle expired the index of a workspace nobody published in for
 * a year) the instance builds one from the table itself and serves it, looking for the builder's
 * object every second as usual but building again only this often.
 */
const REBUILD_AFTER_MS = 60_000;
/** Indexes kept per instance, least recently used dropped first: memory is bounded by a few large ones. */
const MAX_WORKSPACES = 8;

interface Cached {
  index: SearchIndex;
  /** The object's ETag; undefined for an index built from the table. */
  etag: string | undefined;
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

/** The workspace's current index. */
export async function searchIndexOf(workspace: string): Promise<SearchIndex> {
  const now = Date.now();
  const cached = cache.get(workspace);
  if (cached && now - cached.checkedAt < REVALIDATE_AFTER_MS) return remember(workspace, cached);
  const fetched = await fetchIndex(workspace, cached?.etag);
  if (fetched.kind === 'loaded') return remember(workspace, { index: fetched.index, etag: fetched.etag, loadedAt: now, checkedAt: now });
  if (cached && (fetched.kind === 'not-modified' || (cached.etag === undefined && now - cached.loadedAt < REBUILD_AFTER_MS)))
    return remember(workspace, { ...cached, checkedAt: now });
  const index = createIndex(await allPublishedDocuments(workspace));
  return remember(workspace, { index, etag: undefined, loadedAt: now, checkedAt: now });
}
