/**
 * The search bench's measurement through the sandbox (handlers, DynamoDB Local, fauxqs's S3, the
 * stream builder on the event-source-mapping emulator): a workspace whose index already holds the
 * generated corpus (its base segment and manifest written directly, as a full build would), then
 * the first search through HTTP (a cold load of that index), and single publishes timed until they
 * are found. The corpus articles live only in the index, so their hits are counted, not shown.
 */
import { randomUUID } from 'node:crypto';
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../lib/admin/developer-keys.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import type { SearchIndex } from '../lib/knowledge-bank/search/search-index.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';

export interface SandboxFigures {
  /** S3 GET of each stored object through fauxqs, milliseconds: what the cold-load split starts with. */
  s3GetMs: { baseline: number[]; segments: number[] };
  firstSearchMs: number;
  publishToSearchableMs: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureInSandbox(options: {
  base: SearchIndex;
  baselineBody: Uint8Array;
  publishes: number;
}): Promise<SandboxFigures> {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  const { startSandbox } = await import('../local/sandbox.ts');
  const sandbox = await startSandbox({ port: 0, tableName: `cx-portal-search-bench-${process.pid}` });
  try {
    // After the sandbox set KB_SEARCH_BUCKET and the S3 endpoint: these read them when loaded.
    const store = await import('../lib/knowledge-bank/search/store/segments.ts');
    const { commitManifest } = await import('../lib/knowledge-bank/search/store/manifest.ts');
    const { encodeBase } = await import('../lib/knowledge-bank/search/segments.ts');
    const { articleCount, INDEX_FORMAT } = await import('../lib/knowledge-bank/search/search-index.ts');

    const slug = `bench-search-${process.pid}`;
    const ws = await createWorkspace(sandbox.store, slug);
    const { key } = await createDeveloperKey(sandbox.store, {
      workspace: slug,
      permissions: [...PERMISSIONS],
      rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE,
    });

    const baseBody = encodeBase(options.base);
    const baseKey = await store.putSegment(slug, 'base', baseBody);
    const baselineKey = await store.putSegment(`${slug}-baseline`, 'base', options.baselineBody);
    const manifest = {
      format: INDEX_FORMAT,
      version: 1,
      base: { key: baseKey, articles: articleCount(options.base), bytes: baseBody.length, mergedFrom: null, through: null },
      deltas: [],
    };
    await commitManifest(slug, manifest, null);
    await store.putManifestCopy(slug, manifest);

    const timed = async (key: string) => {
      const started = performance.now();
      await store.getSegment(key);
      return performance.now() - started;
    };
    const s3GetMs = { baseline: [] as number[], segments: [] as number[] };
    for (let i = 0; i < 3; i++) {
      s3GetMs.baseline.push(await timed(baselineKey));
      s3GetMs.segments.push(await timed(baseKey));
    }

    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${sandbox.apiUrl}${path}`, {
        method,
        headers: {
          'X-Service-Workspace-Host': ws.host,
          Authorization: `Bearer ${key}`,
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as { category?: { id: string }; article?: { id: string }; results?: Array<{ articleId: string }> };
    };
    let started = performance.now();
    await send('GET', '/knowledge-bank/search?q=invoice');
    const firstSearchMs = performance.now() - started;

    const categoryId = (await send('POST', '/knowledge-bank/categories', { nameEn: 'Bench' })).category!.id;
    const publishToSearchableMs: number[] = [];
    for (let i = 0; i < options.publishes; i++) {
      // Random words: two probe words one letter apart would find each other through typo tolerance.
      const word = `q${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const id = (
        await send('POST', '/knowledge-bank/articles', {
          categoryId,
          titleEn: `Bench article ${i} ${word}`,
          blocks: [{ type: 'paragraph', text: { en: [{ text: `Body of article ${i} about ${word}.` }] } }],
        })
      ).article!.id;
      await send('POST', `/knowledge-bank/articles/${id}/publish`);
      started = performance.now();
      for (;;) {
        const found = (await send('GET', `/knowledge-bank/search?q=${word}`)).results ?? [];
        if (found.some((result) => result.articleId === id)) break;
        await sleep(25);
      }
      publishToSearchableMs.push(performance.now() - started);
    }
    return { s3GetMs, firstSearchMs, publishToSearchableMs };
  } finally {
    await sandbox.stop();
  }
}
