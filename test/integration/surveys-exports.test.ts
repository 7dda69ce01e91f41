/**
 * Survey exports over HTTP: POST → 202 + Location, the queue writer puts the file in S3 (fauxqs),
 * GET gives a presigned link; the file is downloaded and parsed with a real CSV parser, Arabic intact,
 * formula cells neutralised, `not shown` told from empty, a matrix one column per row.
 */
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, expectErrorEnvelope, newKey, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { surveyWithDefinition } from '../support/surveys.ts';

const t = (en: string, ar: string) => ({ en, ar });

const definition = {
  languages: ['en', 'ar'],
  questions: [
    {
      id: 'plan',
      type: 'singleChoice',
      headline: t('Which plan?', 'أي خطة؟'),
      required: true,
      options: [
        { id: 'free', label: t('Free', 'مجاني') },
        { id: 'pro', label: t('Pro', 'احترافي') },
      ],
    },
    {
      id: 'why-free',
      type: 'openText',
      headline: t('Why free?', 'لماذا المجاني؟'),
      required: false,
      visibleIf: { question: 'plan', operator: 'equals', value: 'free' },
    },
    {
      id: 'grid',
      type: 'matrix',
      headline: t('Rate us', 'قيّمنا'),
      required: false,
      rows: [
        { id: 'speed', label: t('Speed', 'السرعة') },
        { id: 'price', label: t('Price', 'السعر') },
      ],
      columns: [
        { id: 'good', label: t('Good', 'جيد') },
        { id: 'bad', label: t('Bad', 'سيئ') },
      ],
    },
    { id: 'comment', type: 'openText', headline: t('Anything else?', 'شيء آخر؟'), required: false },
  ],
  endings: [{ id: 'thanks', headline: t('Thank you!', 'شكرا لك!') }],
};

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let surveyId: string;

beforeAll(async () => {
  ws = await newWorkspace('surveys-exports');
  api = clientFor(ws);
  const made = await surveyWithDefinition(api, definition);
  surveyId = made.surveyId;
  const published = await api.post(`/surveys/${surveyId}/publish`, { body: { versionId: made.versionId } });
  expect(published.status, published.text).toBe(200);
  for (const answers of [
    { plan: 'pro', grid: { speed: 'good', price: 'bad' }, comment: '=HYPERLINK("http://evil.example")' },
    { plan: 'free', 'why-free': '', comment: 'الخدمة ممتازة، شكرا' },
  ]) {
    const res = await api.post(`/surveys/${surveyId}/responses`, { body: { answers, language: 'ar' } });
    expect(res.status, res.text).toBe(201);
  }
});

/** Starts an export, waits for it to be written, and downloads the file. */
async function exportFile(body: Record<string, unknown>): Promise<{ bytes: Buffer; export: any }> {
  const started = await api.post(`/surveys/${surveyId}/exports`, { body });
  expect(started.status, started.text).toBe(202);
  expect(started.body.export).toMatchObject({ status: 'queued', rows: 0, bytes: 0, downloadUrl: null });
  const location = started.headers.get('location') as string;
  expect(location).toBe(`/api/v1/surveys/${surveyId}/exports/${started.body.export.id}`);
  const deadline = Date.now() + 15_000;
  let current: any;
  do {
    await new Promise((resolve) => setTimeout(resolve, 250));
    current = (await api.get(location.replace('/api/v1', ''))).body.export;
  } while (current.status !== 'done' && current.status !== 'failed' && Date.now() < deadline);
  expect(current.status).toBe('done');
  expect(Date.parse(current.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
  const download = await fetch(current.downloadUrl);
  expect(download.status).toBe(200);
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.length).toBe(current.bytes);
  return { bytes, export: current };
}

describe('survey exports', () => {
  it('writes a CSV with a byte-order mark that a CSV parser reads back, Arabic labels intact and formulas neutralised', async () => {
    const { bytes, export: done } = await exportFile({ format: 'csv', labels: 'ar' });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: Record<string, string>[] = parse(bytes, { bom: true, columns: true });
    expect(done.rows).toBe(2);
    expect(rows).toHaveLength(2);
    const pro = rows.find((row) => row.plan === 'احترافي');
    const free = rows.find((row) => row.plan === 'مجاني');
    expect(pro).toMatchObject({
      status: 'finished',
      'why-free': 'not shown',
      'grid.speed': 'جيد',
      'grid.price': 'سيئ',
      comment: `'=HYPERLINK("http://evil.example")`,
    });
    expect(free).toMatchObject({ 'why-free': '', 'grid.speed': '', comment: 'الخدمة ممتازة، شكرا' });
    expect(Object.keys(rows[0] as object)).toEqual([
      'responseId',
      'versionId',
      'status',
      'language',
      'createdAt',
      'finishedAt',
      'secondsToFinish',
      'ending',
      'plan',
      'why-free',
      'grid.speed',
      'grid.price',
      'comment',
    ]);
  });

  it('writes JSON Lines with ids as labels, filtered by status', async () => {
    const { bytes } = await exportFile({ format: 'jsonl', labels: 'ids', status: 'finished', from: '2000-01-01' });
    const records = bytes
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.plan).sort()).toEqual(['free', 'pro']);
    expect(records.find((record) => record.plan === 'pro')).toMatchObject({ 'grid.speed': 'good', 'why-free': 'not shown' });
    const none = await exportFile({ format: 'jsonl', labels: 'ids', status: 'partial' });
    expect(none.bytes.length).toBe(0);
  });

  it('answers 404 for an unknown survey, export or another workspace, 400 for a bad body, 403 without survey-responses:read', async () => {
    expectErrorEnvelope(
      await api.post('/surveys/0195f2a0-7c1e-7000-8000-000000000001/exports', { body: { format: 'csv', labels: 'en' } }),
      404,
      'not_found',
    );
    expectErrorEnvelope(
      await api.post(`/surveys/${surveyId}/exports`, {
        body: { format: 'csv', labels: 'en', versionId: '0195f2a0-7c1e-7000-8000-000000000001' },
      }),
      404,
      'not_found',
    );
    expectErrorEnvelope(await api.get(`/surveys/${surveyId}/exports/0195f2a0-7c1e-7000-8000-000000000001`), 404, 'not_found');
    expectErrorEnvelope(await api.post(`/surveys/${surveyId}/exports`, { body: { format: 'xlsx', labels: 'en' } }), 400, 'invalid_body');
    expectErrorEnvelope(
      await api.post(`/surveys/${surveyId}/exports`, { body: { format: 'csv', labels: 'en', from: '2026-02-01', to: '2026-01-01' } }),
      400,
      'invalid_body',
    );
    const started = await api.post(`/surveys/${surveyId}/exports`, { body: { format: 'csv', labels: 'en' } });
    const other = await newWorkspace('surveys-exports-other');
    expectErrorEnvelope(await clientFor(other).get(`/surveys/${surveyId}/exports/${started.body.export.id}`), 404, 'not_found');
    const reader = await newKey(ws.slug, ['surveys:read']);
    expectErrorEnvelope(
      await clientFor({ host: ws.host, key: reader.key }).post(`/surveys/${surveyId}/exports`, { body: { format: 'csv', labels: 'en' } }),
      403,
      'missing_permission',
    );
  });
});
