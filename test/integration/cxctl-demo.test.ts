/**
 * `cxctl demo` as a newcomer runs it against the sandbox: the README's search examples then find
 * their article, the survey summary and the journey's metric count the responses, everything is
 * published, and a second run changes nothing (same records, same versions, same ETags).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { listDeveloperKeys } from '../../lib/admin/developer-keys.ts';
import { type ApiResponse, adminStore, clientFor, sandbox, uniqueSlug } from '../support/fixtures.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

async function demo(slug: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['bin/cxctl.mjs', 'demo', slug, '--api', sandbox.apiUrl, '--endpoint', sandbox.dynamodbEndpoint, ...args],
    { cwd: ROOT, env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' } },
  );
  return stdout;
}

/**
 * The documented knowledge-bank search examples, wherever the guide lives now (`"$API/…"` in prose,
 * `api GET "/…"` or `poll "/…"` in a walkthrough script), as paths below the API (a shell-encoded query, `$(node -p 'encodeURIComponent("…")')`, encoded the same way).
 */
function documentedSearches(): string[] {
  const guides = [join(ROOT, 'README.md')];
  if (existsSync(join(ROOT, 'docs'))) {
    guides.push(
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(ROOT, 'docs', f)),
    );
  }
  const text = guides.map((file) => readFileSync(file, 'utf8')).join('\n');
  const encoded = /^\$\(node -p 'encodeURIComponent\("([^"]+)"\)'\)/;
  return [
    ...text.matchAll(/"(?:\$API)?(\/knowledge-bank\/search\?q=(?:\$\(node -p 'encodeURIComponent\("[^"]+"\)'\)|[^"&\s]+)[^"\s]*)"/g),
  ].map(([, path]) =>
    (path as string).replace(/(?<=q=).*?(?=&|$)/, (q) => q.replace(encoded, (_, words: string) => encodeURIComponent(words))),
  );
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const ok = (res: ApiResponse) => {
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};

/** Every record the demo writes, with the field that changes on any write to it. */
async function snapshot(api: ReturnType<typeof clientFor>) {
  const pick = <T extends Record<string, unknown>>(list: T[], ...fields: string[]) =>
    list.map((item) => fields.map((f) => String(item[f])).join(' ')).sort();
  const surveys = ok(await api.get('/surveys?limit=100')).surveys;
  const responses = ok(await api.get(`/surveys/${surveys[0].id}/responses?limit=100`));
  const article = await api.get(`/knowledge-bank/articles/${ok(await api.get('/knowledge-bank/articles?limit=100')).articles[0].id}`);
  return {
    ideas: pick(ok(await api.get('/ideas?limit=100')).data, 'id', 'version', 'status'),
    journeys: pick(ok(await api.get('/journeys?limit=100')).journeys, 'id', 'version', 'publishedVersionId'),
    surveys: pick(surveys, 'id', 'version', 'status', 'nameAr'),
    responses: pick(responses.responses, 'id', 'revision'),
    sops: pick(ok(await api.get('/sops')).sops, 'id', 'status', 'updatedAt'),
    categories: pick(ok(await api.get('/knowledge-bank/categories')).categories, 'id', 'version', 'articleCount'),
    articles: pick(ok(await api.get('/knowledge-bank/articles?limit=100')).articles, 'id', 'version', 'liveRevision'),
    webhooks: pick(ok(await api.get('/webhooks')).webhooks, 'id', 'updatedAt', 'enabled'),
    articleEtag: article.headers.get('etag'),
  };
}

describe('cxctl demo', { timeout: 180_000 }, () => {
  it('fills a new workspace so the documented examples answer, and a second run changes nothing', async () => {
    const slug = uniqueSlug('demo');
    const first = JSON.parse(await demo(slug, '--json'));
    expect(first).toMatchObject({ workspace: slug, host: `${slug}.localhost`, workspaceCreated: true, existing: 0, temporaryKey: false });
    expect(first.key).toMatch(/^cxk_/);
    expect(first.webhookSecret).toMatch(/^whsec_/);
    const api = clientFor({ host: first.host, key: first.key });

    // The README's search examples, sent as written (with this sandbox and workspace).
    const searches = documentedSearches();
    expect(searches.length).toBeGreaterThanOrEqual(2);
    const [english, arabic] = searches;
    const found = await eventually(
      () => api.get(english as string),
      (res) => res.body?.results?.length > 0,
      'the search index',
    );
    expect(found.body.results[0]).toMatchObject({ slug: 'reset-your-password', title: 'Reset your password' });
    expect(found.body.results[0].snippet.text).toContain('Get back into your account when you forget your password.');
    const inArabic = ok(await api.get(arabic as string));
    expect(inArabic.results[0]).toMatchObject({ slug: 'reset-your-password', title: 'إعادة تعيين كلمة المرور' });

    // The link checker has the gone link to report (404 with a network, unresolvable without).
    expect((await api.post('/knowledge-bank/links/check')).status).toBe(202);
    const broken = await eventually(
      async () => ok(await api.get('/knowledge-bank/links?status=broken')).links as { url: string }[],
      (links) => links.some((l) => l.url === 'https://example.com/gone'),
      'the link check',
    );
    expect(broken.map((l) => l.url)).toContain('https://example.com/gone');

    // The survey: published, bilingual, and its summary counts the twenty responses.
    const [survey] = ok(await api.get('/surveys')).surveys;
    expect(survey).toMatchObject({ name: 'Support experience', nameAr: 'تجربة الدعم', status: 'published' });
    const summary = await eventually(
      async () => ok(await api.get(`/surveys/${survey.id}/summary`)).summary,
      (s) => s.responses.finished === 20,
      'the survey summary',
    );
    expect(summary.responses).toMatchObject({ started: 20, finished: 20, completionRate: 1 });
    expect(summary.questions.find((q: { questionId: string }) => q.questionId === 'score').nps.score).toEqual(expect.any(Number));

    // The journeys: both published, the micro journey paired to the sign-up stage, the NPS stage scored.
    const journeys = ok(await api.get('/journeys')).journeys;
    expect(journeys).toHaveLength(2);
    for (const journey of journeys) expect(journey.publishedVersionId, journey.titleEn).not.toBeNull();
    const macro = journeys.find((j: { kind: string }) => j.kind === 'macro');
    const metrics = ok(await api.get(`/journeys/${macro.id}/versions/${macro.publishedVersionId}/metrics`)).metrics;
    expect(metrics).toEqual([expect.objectContaining({ stageId: 'support', measure: 'nps', n: 18, meetsTarget: true })]);

    // SOPs through review, ideas, the help centre, the webhook.
    const sops = ok(await api.get('/sops')).sops;
    expect(sops.map((s: { status: string }) => s.status)).toEqual(['published', 'published']);
    expect(ok(await api.get('/ideas')).pagination.total).toBe(6);
    const articles = ok(await api.get('/knowledge-bank/articles')).articles;
    expect(articles.map((a: { status: string }) => a.status)).toEqual(['published', 'published', 'published', 'published']);
    expect(ok(await api.get('/knowledge-bank/translations?locale=ar&status=missing')).articles).toEqual([]);
    expect(ok(await api.get('/knowledge-bank/categories')).categories).toHaveLength(3);
    expect(ok(await api.get('/webhooks')).webhooks).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:4000/hook', enabled: false }),
    ]);
    expect(first.created).toBe(6 + 1 + 20 + 2 + 2 + 3 + 4 + 1);

    // Again: nothing is created or changed, the first key still works, the run's own key is revoked.
    const before = await snapshot(api);
    const second = await demo(slug);
    expect(second).toContain(`Everything already exists in ${slug}: nothing changed.`);
    expect(second).not.toContain('created');
    expect(await snapshot(api)).toEqual(before);
    const keys = await listDeveloperKeys(adminStore(), slug);
    expect(keys.map((k) => [k.name, Boolean(k.revokedAt)]).sort()).toEqual([
      ['Demo data (cxctl demo)', false],
      ['cxctl demo (temporary, revoked after the run)', true],
    ]);
  });
});
