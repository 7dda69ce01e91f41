/**
 * The search function's copy of each workspace's index, kept for the life of the Lambda instance
 * (deliberately module state: it is a cache, not request state). The first search of a workspace
 * loads the index from S3; later ones revalidate it with a conditional GET on its ETag at most once
 * a second, which costs one small request and no body until the builder writes a new index. So a
 * publish shows in search within the builder's delay plus a second.
 */
import { fetchIndex } from './index-store.ts';
import type { SearchIndex } from './search-index.ts';

const REVALIDATE_AFTER_MS = 1_000;
/** Indexes kept per instance, least recently used dropped first: memory is bounded by a few large ones. */
const MAX_WORKSPACES = 8;

interface Cached {
  index: SearchIndex | null;
  etag: string | undefined;
  checkedAt: number;
}

const cache = new Map<string, Cached>();

function remember(workspace: string, entry: Cached): void {
  cache.delete(workspace);
  cache.set(workspace, entry);
  while (cache.size > MAX_WORKSPACES) cache.delete(cache.keys().next().value as string);
}

/** The workspace's current index, or null when none has been built (no article was ever published). */
export async function searchIndexOf(workspace: string): Promise<SearchIndex | null> {
  const now = Date.now();
  const cached = cache.get(workspace);
  if (cached && now - cached.checkedAt < REVALIDATE_AFTER_MS) {
    remember(workspace, cached);
    return cached.index;
  }
  const fetched = await fetchIndex(workspace, cached?.etag);
  if (fetched.kind === 'not-modified' && cached) {
    remember(workspace, { ...cached, checkedAt: now });
    return cached.index;
  }
  const entry: Cached =
    fetched.kind === 'loaded'
      ? { index: fetched.index, etag: fetched.etag, checkedAt: now }
      : { index: null, etag: undefined, checkedAt: now };
  remember(workspace, entry);
  return entry.index;
}
