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

let builder: typeof BuilderModule;
let manifests: typeof ManifestModule;
let store: typeof SegmentStoreModule;
let ws: KbWorkspace;
const articleIds: string[] = [];

async function searchTotal(q: string): Promise<number> {
  const res = await ws.reader.get(`/knowledge-bank/search?q=${encodeURIComponent(q)}`);
  return res.body.total as number;
}

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
    for (const { segment } of results) expect(listed.includes(segment) || after.base.mergedFrom !== null).toBe(true);
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
    for (const { segment } of updates) {
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
