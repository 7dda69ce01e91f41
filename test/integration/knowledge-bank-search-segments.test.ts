/**
 * Index segments against the sandbox's real DynamoDB (the versioned manifest item) and S3 (fauxqs):
 * builders of one workspace racing each other and a merge never lose a delta, and the S3 copy of
 * the manifest that search functions follow ends equal to the table's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as BuilderModule from '../../lib/knowledge-bank/search/builder.ts';
import type { Manifest } from '../../lib/knowledge-bank/search/segments.ts';
import type * as ManifestModule from '../../lib/knowledge-bank/search/store/manifest.ts';
import type * as SegmentStoreModule from '../../lib/knowledge-bank/search/store/segments.ts';
import { sandbox, useSandboxEnvironment } from '../support/fixtures.ts';
import { createArticle, createCategory, type KbWorkspace, kbWorkspace, publish } from '../support/knowledge-bank.ts';
import { objectsUnder, until } from '../support/operator.ts';

let builder: typeof BuilderModule;
let manifests: typeof ManifestModule;
let store: typeof SegmentStoreModule;
let ws: KbWorkspace;
const articleIds: string[] = [];

async function searchIn(workspace: KbWorkspace, q: string): Promise<number> {
  const res = await workspace.reader.get(`/knowledge-bank/search?q=${encodeURIComponent(q)}`);
  return res.body.total as number;
}

const searchTotal = (q: string) => searchIn(ws, q);

beforeAll(async () => {
  useSandboxEnvironment({ AWS_ENDPOINT_URL_S3: sandbox.sqsEndpoint, KB_SEARCH_BUCKET: 'knowledge-bank-search' });
  builder = await import('../../lib/knowledge-bank/search/builder.ts');
  manifests = await import('../../lib/knowledge-bank/search/store/manifest.ts');
  store = await import('../../lib/knowledge-bank/search/store/segments.ts');
  ws = await kbWorkspace('kb-segments');
  const categoryId = (await createCategory(ws.writer, { nameEn: 'Racing' })).id;
  for (let n = 0; n < 6; n++) {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: `Segment probe zqrace${n}`,
      blocks: [{ type: 'paragraph', text: { en: [{ text: `Racing builders keep article ${n}.` }] } }],
    });
    await publish(ws.writer, article.id);
    articleIds.push(article.id);
  }
  // The sandbox's own builder creates the manifest on the first publish it sees (until then the
  // search function indexes from the table); it may still be appending deltas while the tests run,
  // which only adds racers.
  for (const until = Date.now() + 20_000; Date.now() < until && !(await manifests.findManifest(ws.slug)); )
    await new Promise((resolve) => setTimeout(resolve, 200));
}, 120_000);

/** The segment an update wrote (every update here has published articles to index). */
function segmentOf(result: BuilderModule.BuildResult): string {
  if (result.kind === 'nothing-to-index') throw new Error(`${result.workspace}: the update found nothing published`);
  return result.segment;
}

/** The S3 copy search functions follow equals the table's manifest once the writers are done. */
async function expectCopyToCatchUp(): Promise<void> {
  let table: Manifest | null = null;
  let copy: SegmentStoreModule.FetchedManifest | null = null;
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    table = await manifests.findManifest(ws.slug);
    copy = await store.fetchManifestCopy(ws.slug);
    if (copy.kind === 'loaded' && JSON.stringify(copy.manifest.version) === JSON.stringify(table?.version)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(copy?.kind === 'loaded' && copy.manifest).toEqual(table);
}

describe('knowledge-bank search segments in the sandbox', () => {
  it('keeps the delta of every one of six builders racing on one workspace', async () => {
    const before = await manifests.findManifest(ws.slug);
    expect(before).not.toBeNull();
    const results = await Promise.all(articleIds.map((id) => builder.updateSearchIndex(ws.slug, new Set([id]))));
    expect(results.every((result) => result.kind === 'delta')).toBe(true);
    const after = (await manifests.findManifest(ws.slug))!;
    const listed = after.deltas.map((delta) => delta.key);
    // Each was appended (none overwrote another), unless a merge since folded it into the base.
    for (const segment of results.map(segmentOf)) expect(listed.includes(segment) || after.base.mergedFrom !== null).toBe(true);
    expect(after.version).toBeGreaterThanOrEqual(before!.version + results.length);
    await expectCopyToCatchUp();
  });

  it('keeps deltas appended while a merge runs, and search still finds every article', async () => {
    const [merged, ...updates] = await Promise.all([
      builder.mergeSearchIndex(ws.slug),
      ...articleIds.slice(0, 3).map((id) => builder.updateSearchIndex(ws.slug, new Set([id]))),
    ]);
    const after = (await manifests.findManifest(ws.slug))!;
    const listed = after.deltas.map((delta) => delta.key);
    for (const segment of updates.map(segmentOf)) {
      // Either listed after the (new) base, or folded into it by the merge, which read it first.
      const folded = merged !== null && after.base.through !== null && !listed.includes(segment);
      expect(listed.includes(segment) || folded).toBe(true);
    }
    // Every segment the manifest names is still in S3.
    for (const key of [after.base.key, ...listed]) expect(await store.getSegment(key)).not.toBeNull();
    await expectCopyToCatchUp();
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the search function's revalidation interval
    expect(await searchTotal('segment probe')).toBe(6);
  });
});

describe('an emptied workspace has no index, whatever arrives after its removal', () => {
  let emptied: KbWorkspace;
  let articleId: string;
  const indexObjects = () => objectsUnder('searchIndex', `search-index/${emptied.slug}/`);

  beforeAll(async () => {
    emptied = await kbWorkspace('kb-emptied');
    const article = await createArticle(emptied.writer, {
      categoryId: (await createCategory(emptied.writer, { nameEn: 'Emptied' })).id,
      titleEn: 'Soon unpublished zqgone',
      blocks: [{ type: 'paragraph', text: { en: [{ text: 'Nothing stays published here.' }] } }],
    });
    articleId = article.id;
    await publish(emptied.writer, articleId);
    await until(async () => (await manifests.findManifest(emptied.slug)) !== null, 'the index built');
    const unpublished = await emptied.writer.post(`/knowledge-bank/articles/${articleId}/unpublish`, { headers: { 'If-Match': '*' } });
    expect(unpublished.status).toBe(200);
    await until(async () => (await searchIn(emptied, 'zqgone')) === 0, 'the unpublish indexed');
  }, 120_000);

  it('writes nothing when the unpublish is delivered again after the rebuild removed the index', async () => {
    expect(await builder.rebuildSearchIndex(emptied.slug)).toEqual({ kind: 'nothing-to-index' });
    expect(await indexObjects()).toEqual({});
    // The stream delivers at least once: the same record again, as a retried batch would.
    const replayed = await builder.updateSearchIndex(emptied.slug, new Set([articleId]));
    expect(replayed).toEqual({ workspace: emptied.slug, kind: 'nothing-to-index', changedArticles: 1 });
    expect(await manifests.findManifest(emptied.slug)).toBeNull();
    expect(await indexObjects()).toEqual({});
  });

  it('ends with no manifest and no object when builders race the rebuild that removes the index', { timeout: 120_000 }, async () => {
    // An index to remove: published again, the builder builds one in full (there is no manifest), then the unpublish's delta.
    await publish(emptied.writer, articleId);
    await until(async () => (await manifests.findManifest(emptied.slug)) !== null, 'the index built again');
    const again = await emptied.writer.post(`/knowledge-bank/articles/${articleId}/unpublish`, { headers: { 'If-Match': '*' } });
    expect(again.status).toBe(200);
    await until(async () => (await searchIn(emptied, 'zqgone')) === 0, 'the second unpublish indexed');
    expect(await manifests.findManifest(emptied.slug)).not.toBeNull();

    const [rebuilt] = await Promise.all([
      builder.rebuildSearchIndex(emptied.slug),
      ...[1, 2, 3].map(() => builder.updateSearchIndex(emptied.slug, new Set([articleId]))),
    ]);
    expect(rebuilt).toEqual({ kind: 'nothing-to-index' });
    // A builder that appended its delta first left a manifest the rebuild retried on; one that came after writes nothing.
    expect(await manifests.findManifest(emptied.slug)).toBeNull();
    expect(await indexObjects()).toEqual({});
  });
});
