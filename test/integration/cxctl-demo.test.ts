/**
 * `cxctl demo` as a newcomer runs it against the sandbox: the README's search examples then find
 * their article, the survey summary and the journey's metric count the responses, everything is
 * published, a second run changes nothing (same records, same versions, same ETags), and a run after
 * someone changed the demo's records says which and how, changing nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { IDEA_LABELS } from '../../cli/demo/data.ts';
import { listDeveloperKeys } from '../../lib/admin/developer-keys.ts';
import { freePort } from '../../local/wait.ts';
import { demo, demoSnapshot } from '../support/demo.ts';
import { type ApiResponse, adminStore, clientFor, sandbox, uniqueSlug } from '../support/fixtures.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The documented knowledge-bank search examples, wherever the guide lives now (`"$API/…"` in prose,
 * `api GET "/…"` or `poll "/…"` in a walkthrough script), as paths below the API (a shell-encoded query, `$(node -p 'encodeURIComponent("…")')`, encoded the same way),
 * without the walkthrough's filter on the category it made.
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
    (path as string)
      .replace(/(?<=q=).*?(?=&|$)/, (q) => q.replace(encoded, (_, words: string) => encodeURIComponent(words)))
      // The search walkthrough keeps to the category it made (`categoryId=$CAT`); the demo's article is in its own.
      .replace(/&categoryId=\$\w+/, ''),
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

describe('cxctl demo', { timeout: 360_000 }, () => {
  it('fills a new workspace so the documented examples answer, a second run changes nothing, and a run after real changes names them', async () => {
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
    // Customers' votes, comments and a duplicate merged in (issue 39): the idea it went into counts its voter too.
    const everyIdea = ok(await api.get('/ideas?includeMerged=true&limit=100')).data as {
      id: string;
      title: string;
      voteCount: number;
      mergedInto: string | null;
    }[];
    const darkMode = everyIdea.find((i) => i.title === 'Dark mode for the mobile app')!;
    expect(everyIdea.find((i) => i.title === 'Night theme for the app')?.mergedInto).toBe(darkMode.id);
    expect(darkMode.voteCount).toBe(3);
    // The list by votes follows them through the table's stream, about a second behind.
    await eventually(
      async () => ok(await api.get('/ideas?sort=-votes&limit=1')).data[0]?.title,
      (title) => title === 'Dark mode for the mobile app',
      'the most voted idea first',
    );
    const comments = ok(await api.get(`/ideas/${darkMode.id}/comments`)).comments as { visibility: string; body: string }[];
    expect(comments.map((c) => [c.visibility, c.body])).toEqual([['internal', 'The night shift asked for this twice this month.']]);
    const articles = ok(await api.get('/knowledge-bank/articles')).articles;
    expect(articles.map((a: { status: string }) => a.status)).toEqual(['published', 'published', 'published', 'published']);
    expect(ok(await api.get('/knowledge-bank/translations?locale=ar&status=missing')).articles).toEqual([]);
    expect(ok(await api.get('/knowledge-bank/categories')).categories).toHaveLength(3);
    expect(ok(await api.get('/webhooks')).webhooks).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:4000/hook', enabled: false }),
    ]);
    // Ideas, their votes, comments and merged duplicate, then the rest.
    expect(first.created).toBe(6 + 5 + 2 + 1 + 1 + 20 + 2 + 2 + 3 + 4 + 1);

    // Again: nothing is created or changed, the first key still works, the run's own key is revoked.
    const before = await demoSnapshot(api);
    const second = await demo(slug);
    expect(second).toContain(`Everything already exists in ${slug}: nothing changed.`);
    expect(second).not.toContain('created');
    expect(await demoSnapshot(api)).toEqual(before);
    const keys = await listDeveloperKeys(adminStore(), slug);
    expect(keys.map((k) => [k.name, Boolean(k.revokedAt)]).sort()).toEqual([
      ['Demo data (cxctl demo)', false],
      ['cxctl demo (temporary, revoked after the run)', true],
    ]);

    // Someone changes the demo's data: an idea's status, an article's draft, and the SOP directory
    // (an import that lists one person, as sops.sh did: everyone else becomes inactive).
    const idea = (ok(await api.get('/ideas?limit=100')).data as { id: string; title: string; version: number }[]).find(
      (i) => i.title === 'Track my refund',
    )!;
    expect((await api.patch(`/ideas/${idea.id}`, { body: { status: 'planned' } })).status).toBe(200);
    const article = (ok(await api.get('/knowledge-bank/articles?limit=100')).articles as { id: string; slug: string }[]).find(
      (a) => a.slug === 'pay-an-invoice',
    )!;
    const draft = await api.get(`/knowledge-bank/articles/${article.id}`);
    const { titleAr, summaryEn, summaryAr, blocks } = draft.body.article;
    const saved = await api.put(`/knowledge-bank/articles/${article.id}/draft`, {
      // The draft as read (blocks without the translation states the API adds), with a new English title.
      body: {
        titleEn: 'Pay an invoice online',
        titleAr,
        summaryEn,
        summaryAr,
        blocks: blocks.map(({ translation: _, ...block }: Record<string, unknown>) => block),
      },
      headers: { 'If-Match': draft.headers.get('etag')! },
    });
    expect(saved.status, saved.text).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'demo-'));
    writeFileSync(
      join(dir, 'directory.json'),
      JSON.stringify({ people: [{ name: 'Amal Haddad', email: 'amal@example.com', active: true }], teams: [] }),
    );
    await run(
      process.execPath,
      ['bin/cxctl.mjs', 'directory', 'import', slug, '--file', join(dir, 'directory.json'), '--endpoint', sandbox.dynamodbEndpoint],
      {
        cwd: ROOT,
        env: { ...process.env, TABLE_NAME: sandbox.tableName },
      },
    );

    // The demo now says what differs, record by record, and changes nothing.
    const changed = await demoSnapshot(api);
    const third = await demo(slug);
    expect(third).not.toContain('nothing changed');
    expect(third).toContain(`The demo data exists in ${slug} and this run wrote nothing, but not all of it is as the demo wrote it:`);
    const reported = third.slice(third.indexOf('Changed since the demo wrote them')).split('\n\n')[0]!.split('\n').slice(1);
    expect(reported).toEqual([
      '  idea "Track my refund": status is "planned", the demo wrote "new"',
      '  SOP directory: Omar Saleh: active is false, the demo wrote true',
      '  SOP directory: Customer Care: active is false, the demo wrote true',
      '  SOP directory: Billing: active is false, the demo wrote true',
      '  knowledge-bank article "pay-an-invoice": hasUnpublishedChanges is true, the demo wrote false',
    ]);
    expect(await demoSnapshot(api)).toEqual(changed);
    const asJson = JSON.parse(await demo(slug, '--json'));
    expect(asJson).toMatchObject({ created: 0, changed: 0 });
    expect(asJson.differences).toContainEqual({ record: 'idea "Track my refund"', path: 'status', expected: 'new', actual: 'planned' });
  });

  it('says it created the workspace before what it added to it', async () => {
    const slug = uniqueSlug('demo');
    // An API that is not there: the run stops at its first request, after making the workspace.
    const nowhere = `http://127.0.0.1:${await freePort()}/api/v1`;
    const failed = await run(process.execPath, ['bin/cxctl.mjs', 'demo', slug, '--api', nowhere, '--endpoint', sandbox.dynamodbEndpoint], {
      cwd: ROOT,
      env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' },
    }).catch((error: { stdout: string }) => error);
    const lines = failed.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `Created workspace ${slug} (X-Service-Workspace-Host: ${slug}.localhost).`,
      `Added the idea labels the demo uses to ${slug}: ${[...IDEA_LABELS.statuses, ...IDEA_LABELS.modules].join(', ')}.`,
    ]);
  });
});
