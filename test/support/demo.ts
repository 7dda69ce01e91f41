/**
 * `cxctl demo` as a person runs it against the test sandbox, and a snapshot of the records the demo
 * wrote (found by the data set's own natural keys, so whatever else the workspace holds is left out),
 * each with the fields that change on any write to it.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { DIRECTORY, IDEAS, MACRO_JOURNEY, MICRO_JOURNEY, SOPS, SURVEY, WEBHOOK } from '../../cli/demo/data.ts';
import { ARTICLES, CATEGORIES } from '../../cli/demo/knowledge-bank-data.ts';
import { type ApiResponse, type clientFor, sandbox } from './fixtures.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/** `npx cxctl demo <slug> …` on this sandbox; its stdout. */
export async function demo(slug: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['bin/cxctl.mjs', 'demo', slug, '--api', sandbox.apiUrl, '--endpoint', sandbox.dynamodbEndpoint, ...args],
    { cwd: ROOT, env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' } },
  );
  return stdout;
}

const ok = (res: ApiResponse) => {
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};

type Api = ReturnType<typeof clientFor>;
type Item = Record<string, unknown>;

/** The demo's records of one kind (`keyOf` their natural key, `keys` the data set's), each as its `fields`. */
function picked(list: Item[], keyOf: (item: Item) => unknown, keys: readonly unknown[], ...fields: string[]): string[] {
  return list
    .filter((item) => keys.includes(keyOf(item)))
    .map((item) => [String(keyOf(item)), ...fields.map((field) => JSON.stringify(item[field]))].join(' '))
    .sort();
}

/** Every record the demo wrote, by its natural key, with what changes on any write to it. */
export async function demoSnapshot(api: Api) {
  const surveys = ok(await api.get('/surveys?limit=100')).surveys as Item[];
  const survey = surveys.find((s) => s.name === SURVEY.name)!;
  const articles = ok(await api.get('/knowledge-bank/articles?limit=100')).articles as Item[];
  const article = articles.find((a) => a.slug === ARTICLES[0]!.slug)!;
  const directory = ok(await api.get('/sops/directory'));
  const journeys = [
    ...(ok(await api.get('/journeys?kind=macro&limit=100')).journeys as Item[]),
    ...(ok(await api.get('/journeys?kind=micro&limit=100')).journeys as Item[]),
  ];
  return {
    ideas: picked(
      ok(await api.get('/ideas?limit=100')).data,
      (i) => i.title,
      IDEAS.map((i) => i.title),
      'id',
      'version',
      'status',
    ),
    journeys: picked(journeys, (j) => j.titleEn, [MACRO_JOURNEY.titleEn, MICRO_JOURNEY.titleEn], 'id', 'version', 'publishedVersionId'),
    surveys: picked(surveys, (s) => s.name, [SURVEY.name], 'id', 'version', 'status', 'nameAr'),
    // Every response of the demo's survey is the demo's.
    responses: (ok(await api.get(`/surveys/${survey.id}/responses?limit=100`)).responses as Item[])
      .map((r) => `${r.id} ${r.revision}`)
      .sort(),
    sops: picked(
      ok(await api.get('/sops')).sops,
      (s) => s.titleEn,
      SOPS.map((s) => s.titleEn),
      'id',
      'status',
      'updatedAt',
    ),
    directory: [
      ...picked(
        directory.people,
        (p) => p.email,
        DIRECTORY.people.map((p) => p.email),
        'id',
        'active',
      ),
      ...picked(
        directory.teams,
        (t) => t.name,
        DIRECTORY.teams.map((t) => t.name),
        'id',
        'active',
      ),
    ],
    categories: picked(
      ok(await api.get('/knowledge-bank/categories')).categories,
      (c) => c.slug,
      CATEGORIES.map((c) => c.slug),
      'id',
      'version',
      'articleCount',
    ),
    articles: picked(
      articles,
      (a) => a.slug,
      ARTICLES.map((a) => a.slug),
      'id',
      'version',
      'liveRevision',
    ),
    webhooks: picked(ok(await api.get('/webhooks')).webhooks, (w) => w.name, [WEBHOOK.name], 'id', 'updatedAt', 'enabled'),
    articleEtag: (await api.get(`/knowledge-bank/articles/${article.id}`)).headers.get('etag'),
  };
}
