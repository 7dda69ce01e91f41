/**
 * Keeps a workspace's index segments up to date with the articles a batch of stream records
 * touched. An update writes one delta (the touched articles' documents as the table holds them now,
 * so replays and out-of-order records converge) and appends it to the manifest: a few kilobytes,
 * whatever the workspace's size. Once deltas pile up (segments.ts: needsMerge) the builder merges
 * them into a new base after the update is already visible, so the merge never delays the publish
 * that triggered it. With no manifest (or one of an older format, or a segment gone) the whole
 * workspace is built from the table.
 *
 * Builders of one workspace may run at once (its records can sit in different stream shards) but
 * never on one article: DynamoDB Streams keeps an item's records in order within one shard lineage,
 * and Lambda finishes a parent shard before its children
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html). So deltas of
 * racing builders touch different articles and commute; the manifest's version guard
 * (manifest.ts) makes sure each one is kept.
 *
 * A workspace with nothing published gets no index, not an empty one: a full build that finds no
 * published article and no manifest writes nothing. So a stream record delivered again after `cxctl
 * rebuild search` removed an emptied workspace's index (Lambda retries a batch whole, and records
 * arrive at least once) cannot write an empty index back. Removing an index is the rebuild's alone:
 * the builder's grant has no DeleteItem (an index it has stays, emptied, as its deltas made it).
 */
import { conflictBackoff } from '../../platform/data/conditions.ts';
import { articleCount, createIndex, INDEX_FORMAT } from './search-index.ts';
import {
  decodeBase,
  decodeDelta,
  encodeBase,
  encodeDelta,
  type Manifest,
  mergedIndex,
  needsMerge,
  withDelta,
  withMergedBase,
} from './segments.ts';
import { commitManifest, deleteManifest, findManifest } from './store/manifest.ts';
import { allPublishedDocuments, currentDocuments } from './store/published-articles.ts';
import { deleteManifestCopy, deleteSegments, getSegment, putManifestCopy, putSegment } from './store/segments.ts';

/** Lost manifest races before a builder gives up (and the batch is retried by Lambda). */
const MAX_ATTEMPTS = 8;

export type BuildResult =
  | {
      workspace: string;
      kind: 'full' | 'delta';
      changedArticles: number;
      /** The segment written (the delta, or the base of a full build) and its compressed size. */
      segment: string;
      bytes: number;
      /** What a merge that followed wrote, if one did. */
      merged?: { articles: number; bytes: number };
    }
  /** Nothing is published: the workspace has no index (one it had is removed). */
  | { workspace: string; kind: 'nothing-to-index'; changedArticles: number };

const segmentKeys = (manifest: Manifest) => [manifest.base.key, ...manifest.deltas.map((delta) => delta.key)];

/**
 * Makes the S3 copy that readers follow match the table's manifest. Writers racing can put their
 * copies out of order, so each one reads the manifest again after its put and puts again until the
 * copy it wrote is the current one: whichever put lands last was followed by such a read. A manifest
 * removed meanwhile (`cxctl rebuild search` on a workspace with nothing published left) takes the
 * copy with it, or the copy this writer just put would name segments already deleted.
 */
async function publishManifest(workspace: string, committed: Manifest): Promise<void> {
  let manifest: Manifest | null = committed;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (manifest) await putManifestCopy(workspace, manifest);
    else await deleteManifestCopy(workspace);
    const current: Manifest | null = await findManifest(workspace);
    if (current?.version === manifest?.version) return;
    manifest = current;
  }
}

interface FullBuild {
  committed: boolean;
  segment: string;
  bytes: number;
  articles: number;
}

async function fullBuild(
  workspace: string,
  previous: Manifest | null,
  documents: Awaited<ReturnType<typeof allPublishedDocuments>>,
): Promise<FullBuild> {
  const index = createIndex(documents);
  const body = encodeBase(index);
  const key = await putSegment(workspace, 'base', body);
  const articles = articleCount(index);
  const next: Manifest = {
    format: INDEX_FORMAT,
    version: (previous?.version ?? 0) + 1,
    base: { key, articles, bytes: body.length, mergedFrom: null, through: null },
    deltas: [],
  };
  if (!(await commitManifest(workspace, next, previous?.version ?? null))) {
    await deleteSegments([key]);
    return { committed: false, segment: key, bytes: body.length, articles };
  }
  await publishManifest(workspace, next);
  if (previous) await deleteSegments(segmentKeys(previous));
  return { committed: true, segment: key, bytes: body.length, articles };
}

type Replacement = { kind: 'built'; build: FullBuild } | { kind: 'nothing-to-index' } | { kind: 'lost-race' };

/**
 * Replaces the manifest `previous` (null: none) with a full build from the table; with nothing
 * published and no manifest, writes nothing. With nothing published and a manifest, the operator's
 * rebuild (`removeWhenEmpty`) removes it, copy first: a builder that publishes meanwhile loses its race on
 * this version and puts its own copy back, or builds anew once the manifest is gone. The stream's
 * builder, whose grant has no DeleteItem, builds the empty index instead.
 * 'lost-race': the manifest changed since `previous` was read; read it again and retry.
 */
async function replaceIndex(
  workspace: string,
  previous: Manifest | null,
  { removeWhenEmpty }: { removeWhenEmpty: boolean },
): Promise<Replacement> {
  const documents = await allPublishedDocuments(workspace);
  if (documents.length === 0 && (!previous || removeWhenEmpty)) {
    if (!previous) return { kind: 'nothing-to-index' };
    await deleteManifestCopy(workspace);
    if (!(await deleteManifest(workspace, previous.version))) return { kind: 'lost-race' };
    await deleteSegments(segmentKeys(previous));
    return { kind: 'nothing-to-index' };
  }
  const build = await fullBuild(workspace, previous, documents);
  return build.committed ? { kind: 'built', build } : { kind: 'lost-race' };
}

export async function updateSearchIndex(workspace: string, articleIds: ReadonlySet<string>): Promise<BuildResult> {
  let manifest = await findManifest(workspace);
  let delta: { key: string; bytes: number; articles: number } | undefined;
  for (let attempt = 1; ; attempt++) {
    if (!manifest || manifest.format !== INDEX_FORMAT) {
      const replaced = await replaceIndex(workspace, manifest, { removeWhenEmpty: false });
      // A delta written before the manifest was replaced or removed is in the new base already (it read the table earlier).
      if (replaced.kind !== 'lost-race' && delta) await deleteSegments([delta.key]);
      if (replaced.kind === 'nothing-to-index') return { workspace, kind: 'nothing-to-index', changedArticles: articleIds.size };
      if (replaced.kind === 'built') {
        const { segment, bytes } = replaced.build;
        return { workspace, kind: 'full', changedArticles: articleIds.size, segment, bytes };
      }
    } else {
      if (!delta) {
        const changes = [...(await currentDocuments(workspace, articleIds))];
        const body = encodeDelta(changes);
        delta = { key: await putSegment(workspace, 'delta', body), bytes: body.length, articles: changes.length };
      }
      const next = withDelta(manifest, delta);
      if (await commitManifest(workspace, next, manifest.version)) {
        await publishManifest(workspace, next);
        const merged = needsMerge(next) ? await mergeSearchIndex(workspace) : null;
        return {
          workspace,
          kind: 'delta',
          changedArticles: articleIds.size,
          segment: delta.key,
          bytes: delta.bytes,
          ...(merged ? { merged } : {}),
        };
      }
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error('The search manifest kept changing under this update');
    await conflictBackoff(attempt);
    manifest = await findManifest(workspace);
  }
}

export type RebuildResult =
  | { kind: 'rebuilt'; articles: number; bytes: number; segment: string; replacedVersion: number | null }
  | { kind: 'nothing-to-index' };

/**
 * A full build from the table, whatever the manifest says (`cxctl rebuild search`): after a restore
 * or a redeploy the manifest can name segments the bucket no longer holds. It replaces the manifest
 * on the version it read, so a builder racing it keeps its delta or this build retries; running it
 * twice changes nothing a search sees. A workspace with nothing published gets no index: one it had
 * (its articles since unpublished or deleted) is removed, not replaced by an empty one.
 */
export async function rebuildSearchIndex(workspace: string): Promise<RebuildResult> {
  for (let attempt = 1; ; attempt++) {
    const manifest = await findManifest(workspace);
    const replaced = await replaceIndex(workspace, manifest, { removeWhenEmpty: true });
    if (replaced.kind === 'nothing-to-index') return { kind: 'nothing-to-index' };
    if (replaced.kind === 'built') {
      const { articles, bytes, segment } = replaced.build;
      return { kind: 'rebuilt', articles, bytes, segment, replacedVersion: manifest?.version ?? null };
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error('The search manifest kept changing under this rebuild');
    await conflictBackoff(attempt);
  }
}

/**
 * Folds the manifest's deltas into a new base. A merge that loses to another merge or a full build
 * is dropped (its base object deleted); one that loses to an appended delta keeps that delta listed
 * after the new base. A segment gone from S3 (expired by the lifecycle) means a full build.
 */
export async function mergeSearchIndex(workspace: string): Promise<{ articles: number; bytes: number } | null> {
  const read = await findManifest(workspace);
  if (!read || read.format !== INDEX_FORMAT || read.deltas.length === 0) return null;
  const [baseBody, ...deltaBodies] = await Promise.all(segmentKeys(read).map(getSegment));
  if (!baseBody || deltaBodies.some((body) => !body)) {
    const replaced = await replaceIndex(workspace, read, { removeWhenEmpty: false });
    return replaced.kind === 'built' ? { articles: replaced.build.articles, bytes: replaced.build.bytes } : null;
  }
  const index = await mergedIndex(
    decodeBase(baseBody),
    deltaBodies.map((body) => decodeDelta(body as Uint8Array)),
  );
  const body = encodeBase(index);
  const ref = { key: await putSegment(workspace, 'base', body), articles: articleCount(index), bytes: body.length };
  const merged = read.deltas.map((delta) => delta.key);
  let current: Manifest | null = read;
  for (let attempt = 1; current && attempt <= MAX_ATTEMPTS; attempt++) {
    const next = withMergedBase(current, read.base.key, merged, ref);
    if (!next) break;
    if (await commitManifest(workspace, next, current.version)) {
      await publishManifest(workspace, next);
      await deleteSegments([read.base.key, ...merged]);
      return { articles: ref.articles, bytes: ref.bytes };
    }
    current = await findManifest(workspace);
  }
  await deleteSegments([ref.key]);
  return null;
}
