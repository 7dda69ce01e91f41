/**
 * External link checking end to end: articles link to a local receiver answering 200, 404, 301,
 * 405-to-HEAD and nothing at all; POST /links/check queues a check that the sandbox's checker (on
 * the event-source-mapping emulator) runs; GET /links shows what it found. Then the outbound guard
 * switched on: blocked addresses are recorded as broken and never contacted.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope, useSandboxEnvironment } from '../support/fixtures.ts';
import { createArticle, createCategory, type KbWorkspace, kbWorkspace, publish } from '../support/knowledge-bank.ts';

const requests: Array<{ method: string; path: string }> = [];
let receiver: Server;
let base: string;

function answer(req: IncomingMessage, res: import('node:http').ServerResponse): void {
  requests.push({ method: req.method ?? '', path: req.url ?? '' });
  switch (req.url) {
    case '/ok':
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>fine</p>');
      return;
    case '/missing':
      res.writeHead(404).end();
      return;
    case '/moved':
      res.writeHead(301, { Location: '/ok' }).end();
      return;
    case '/no-head':
      res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
      return;
    case '/silent':
      return; // never answers: the checker's deadline decides
    default:
      res.writeHead(500).end();
  }
}

const linkBlock = (...urls: string[]) => ({
  type: 'paragraph',
  text: { en: urls.flatMap((href, i) => [{ text: `link ${i} ` }, { text: href, link: { href } }]) },
});

let ws: KbWorkspace;
let categoryId: string;

beforeAll(async () => {
  receiver = createServer(answer);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  ws = await kbWorkspace('kb-links');
  categoryId = (await createCategory(ws.writer, { nameEn: 'Links' })).id;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function links(api: KbWorkspace['writer'], query = '') {
  const res = await api.get(`/knowledge-bank/links${query}`);
  if (res.status !== 200) throw new Error(`links failed: ${res.status} ${res.text}`);
  return res.body as { links: Array<Record<string, any>>; pagination: Record<string, any> };
}

describe('external link checking', () => {
  it('records ok, broken, redirected and broken-on-timeout, with HEAD then GET when HEAD is refused', async () => {
    const live = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Useful links',
      blocks: [
        linkBlock(`${base}/ok`, `${base}/missing`, `${base}/moved`),
        linkBlock(`${base}/no-head`, `${base}/silent`, 'mailto:help@example.com'),
      ],
    });
    await publish(ws.writer, live.id);
    const draftOnly = await createArticle(ws.writer, { categoryId, titleEn: 'Draft links', blocks: [linkBlock(`${base}/ok`)] });

    const before = await links(ws.writer);
    expect(before.links.map((l) => [l.url, l.status])).toEqual([
      [`${base}/missing`, 'unchecked'],
      [`${base}/moved`, 'unchecked'],
      [`${base}/no-head`, 'unchecked'],
      [`${base}/ok`, 'unchecked'],
      [`${base}/silent`, 'unchecked'],
      ['mailto:help@example.com', 'unchecked'],
    ]);
    expect(before.links.find((l) => l.url === `${base}/ok`)?.articles).toEqual([live.id, draftOnly.id].sort());

    const queued = await ws.writer.post('/knowledge-bank/links/check');
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({ ok: true });

    let after = before;
    for (let waited = 0; waited < 30_000; waited += 250) {
      after = await links(ws.writer);
      if (after.links.filter((l) => l.url.startsWith('http')).every((l) => l.status !== 'unchecked')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const byUrl = Object.fromEntries(after.links.map((l) => [l.url, l]));
    expect(byUrl[`${base}/ok`]).toMatchObject({ status: 'ok', httpStatus: 200, redirectTo: null });
    expect(byUrl[`${base}/missing`]).toMatchObject({ status: 'broken', httpStatus: 404 });
    expect(byUrl[`${base}/moved`]).toMatchObject({ status: 'redirected', httpStatus: 301, redirectTo: `${base}/ok` });
    expect(byUrl[`${base}/no-head`]).toMatchObject({ status: 'ok', httpStatus: 200 });
    expect(byUrl[`${base}/silent`]).toMatchObject({ status: 'broken', httpStatus: null, detail: expect.stringContaining('timed out') });
    expect(byUrl['mailto:help@example.com']).toMatchObject({ status: 'unchecked', checkedAt: null });
    for (const url of ['ok', 'missing', 'moved', 'no-head', 'silent']) expect(Date.parse(byUrl[`${base}/${url}`]!.checkedAt)).not.toBeNaN();

    // Redirects are recorded, never followed; HEAD first, GET only where HEAD is refused.
    expect(requests.filter((r) => r.path === '/moved').map((r) => r.method)).toEqual(['HEAD']);
    expect(requests.filter((r) => r.path === '/no-head').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(requests.filter((r) => r.path === '/ok').map((r) => r.method)).toEqual(['HEAD']);

    // The result shows on the article's own links too.
    const own = await ws.writer.get(`/knowledge-bank/articles/${live.id}/links?view=live`);
    expect(own.body.links.find((l: Record<string, unknown>) => l.target === `${base}/missing`)).toMatchObject({
      status: 'broken',
      httpStatus: 404,
    });

    // Filters and pagination.
    expect((await links(ws.writer, '?status=broken')).links.map((l) => l.url)).toEqual([`${base}/missing`, `${base}/silent`]);
    expect((await links(ws.writer, '?status=redirected')).links.map((l) => l.url)).toEqual([`${base}/moved`]);
    const page = await links(ws.writer, '?limit=2&offset=1');
    expect(page.links.map((l) => l.url)).toEqual([`${base}/moved`, `${base}/no-head`]);
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 6, hasMore: true, nextCursor: expect.any(String) });
    // The cursor resumes after the page's last URL.
    const next = await links(ws.writer, `?limit=2&cursor=${encodeURIComponent(page.pagination.nextCursor)}`);
    expect(next.links.map((l) => l.url)).toEqual([`${base}/ok`, `${base}/silent`]);
    expect(next.pagination).toMatchObject({ offset: 3, total: 6, hasMore: true });

    // A read-only key sees live content only: the draft-only article is not among the linking articles.
    expect((await links(ws.reader)).links.find((l) => l.url === `${base}/ok`)?.articles).toEqual([live.id]);
  }, 60_000);

  it('rejects an unknown status, a bad page and a read-only key asking for a check', async () => {
    expectErrorEnvelope(await ws.writer.get('/knowledge-bank/links?status=gone'), 400, 'invalid_query');
    expectErrorEnvelope(await ws.writer.get('/knowledge-bank/links?limit=101'), 400, 'invalid_query');
    expectErrorEnvelope(await ws.reader.post('/knowledge-bank/links/check'), 403, 'missing_permission');
  });
});

describe('the outbound guard, switched on', () => {
  it('records blocked addresses as broken and never contacts them', async () => {
    const guarded = await kbWorkspace('kb-links-guard');
    const category = (await createCategory(guarded.writer, { nameEn: 'Guarded' })).id;
    const article = await createArticle(guarded.writer, {
      categoryId: category,
      titleEn: 'Internal addresses',
      blocks: [linkBlock(`${base}/ok?guarded`, 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:9/', 'http://10.0.0.1/')],
    });
    await publish(guarded.writer, article.id);

    // The checker as Lambda runs it in AWS: private networks refused.
    useSandboxEnvironment({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_ALLOW_HTTP: 'true', KB_LINK_CHECK_TIMEOUT_MS: '2000' });
    const { checkWorkspaceLinks } = await import('../../lib/knowledge-bank/link-check/run.ts');
    const before = requests.length;
    const run = await checkWorkspaceLinks(guarded.slug, { deadline: Date.now() + 30_000 });
    expect(run).toMatchObject({ checked: 4, remaining: 0 });
    expect(requests.slice(before)).toEqual([]);

    const listed = await links(guarded.writer);
    expect(listed.links).toHaveLength(4);
    for (const link of listed.links) {
      expect(link).toMatchObject({ status: 'broken', httpStatus: null });
      expect(link.detail).toMatch(/^blocked: /);
    }
  }, 60_000);
});
