/**
 * Each Lambda instance's similarity index per workspace (deliberately module state: a cache, not
 * request state), built from the table and kept fresh as the knowledge bank's index is kept when it
 * has no segments yet (lib/knowledge-bank/search/index-cache.ts):
 *   - the first lookup of a workspace reads every idea's text (one Query call per 1 MB page) and
 *     indexes it; again after REBUILD_AFTER_MS, which brings in edits and deletions;
 *   - every other lookup first reads the ideas created since its last one (one Query call, usually
 *     empty), from a few seconds before it, since ids come from the clocks of many instances;
 *   - the candidates a lookup answers are read again consistently (find-similar-ideas.ts), so a
 *     deleted idea is never answered and an edited one is scored by its current text.
 * Why not the knowledge bank's stream-built segments: an idea is a title and a description, so
 * 10,000 of them are a few MB of text, one build of a few pages (bench: `npm run bench`, similar
 * ideas), and the table's stream already has the two readers AWS recommends at most
 * (lib/knowledge-bank/search/pipeline.ts). What is stale is bounded: an edit that makes an idea
 * match a text it did not match shows within a minute.
 */
import { SimilarityIndex } from './index.ts';
import { ideaTextsSince, newestIdeaTexts } from './store/ideas.ts';

const REBUILD_AFTER_MS = 60_000;
/** How far back a catch-up reads: more than the clock skew between the instances that create ideas. */
const CATCH_UP_OVERLAP_MS = 5_000;
/** The newest ideas a create's catch-up reads: a fixed number, so its units do not grow with the rate of creates. */
const DUPLICATES_CATCH_UP = 25;
/** Workspaces kept per instance, least recently used dropped first (10,000 ideas take some MB). */
const MAX_WORKSPACES = 20;

interface Cached {
  index: SimilarityIndex;
  builtAt: number;
  /** When the last catch-up started: the next one reads from a little before it. */
  checkedAt: number;
}

/** Workspace → its index, least recently used first. */
const cache = new Map<string, Cached>();

/** The workspace's index, fresh as the header comment says. */
export async function similarityIndexOf(workspace: string): Promise<SimilarityIndex> {
  const now = Date.now();
  let entry = cache.get(workspace);
  if (!entry || now - entry.builtAt > REBUILD_AFTER_MS) {
    const index = new SimilarityIndex();
    for (const idea of await ideaTextsSince(workspace)) index.put(idea);
    entry = { index, builtAt: now, checkedAt: now };
  } else {
    const since = entry.checkedAt - CATCH_UP_OVERLAP_MS;
    entry.checkedAt = now;
    for (const idea of await ideaTextsSince(workspace, since)) entry.index.put(idea);
  }
  cache.delete(workspace);
  cache.set(workspace, entry);
  for (const stale of cache.keys()) {
    if (cache.size <= MAX_WORKSPACES) break;
    cache.delete(stale);
  }
  return entry.index;
}

/**
 * The workspace's index as a create's possible duplicates read it: a build as above when there is
 * none or it is stale, else the 25 newest ideas put in (one eventually consistent Query of a fixed
 * size). Reading every idea of the last seconds, as a lookup does, cost each create more the faster
 * ideas came: at the capacity model's 500 creates a second it was the ideas' range's bottleneck
 * (docs/costs.md, "People: submitting ideas"). More than 25 ideas since the instance's last look are
 * found by its next build, within a minute: possible duplicates are advice.
 */
export async function duplicatesIndexOf(workspace: string): Promise<SimilarityIndex> {
  const entry = cache.get(workspace);
  if (!entry || Date.now() - entry.builtAt > REBUILD_AFTER_MS) return similarityIndexOf(workspace);
  for (const idea of await newestIdeaTexts(workspace, DUPLICATES_CATCH_UP)) entry.index.put(idea);
  return entry.index;
}
