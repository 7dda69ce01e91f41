/**
 * Upgrading a table in place (issue 32 item 4, issue 28 item 1): a sandbox starts on a DATA_DIR that
 * main's commit 80f9095 wrote (test/fixtures/upgrade-80f9095, made by scripts/make-upgrade-fixture.ts:
 * survey responses in the layout before migration 002), serves every read from it as it is, and then
 * `cxctl migrate` moves it while submits, continuations and deletes go on: a dry run writes nothing, a
 * run killed halfway resumes from its checkpoint, a second run changes nothing, and afterwards every
 * response, count, feed entry and summary is as it was, plus the new writes. Neither stream reader
 * takes a move for something new: the summary counts nothing twice, no finished response is
 * announced again.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { createLocalStore, type Store } from '../../lib/admin/store.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';
import { cxctl, type SandboxProcess, startSandboxProcess, until } from '../support/sandbox-process.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

// A sandbox of its own, a migration and a few hundred requests: minutes on a busy machine, not seconds.
vi.setConfig({ testTimeout: 600_000 });

const FIXTURE = resolve(import.meta.dirname, '../fixtures/upgrade-80f9095');
const manifest = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8'));
const { a, b, c, d } = manifest.surveys;
const WORKSPACE: string = manifest.workspace;
const EPOCH = '2000-01-01T00:00:00.000Z';

let dataDir: string;
let sandbox: SandboxProcess;
let store: Store;
let key: string;
let receiver: Receiver;

type Json = any;

async function api(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${sandbox.apiUrl}${path}`, {
    method,
    headers: {
      'X-Service-Workspace-Host': `${WORKSPACE}.localhost`,
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

async function ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json> {
  const res = await api(method, path, body, headers);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every page of a list, walked by cursor. */
async function walk(path: string, limit: number): Promise<{ entries: Json[]; total: number }> {
  const entries: Json[] = [];
  let cursor: string | null = null;
  let total = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: Json = await ok('GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    entries.push(...page.responses);
    total = page.pagination.total;
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return { entries, total };
}

/** Everything a client can read of a survey's responses, cursors left out (they name keys, which move). */
async function readSurvey(survey: { surveyId: string; versionId: string; v2?: string }): Promise<Json> {
  const base = `/surveys/${survey.surveyId}`;
  const list = await walk(`${base}/responses`, 7);
  const versions = [survey.versionId, ...(survey.v2 ? [survey.v2] : [])];
  const filters = ['status=partial', 'status=finished', ...versions.flatMap((v) => [`versionId=${v}`, `versionId=${v}&status=finished`])];
  const filtered: Json = {};
  for (const filter of filters) filtered[filter] = await walk(`${base}/responses?${filter}`, 4);
  const respondents = [...new Set(list.entries.map((r: Json) => r.respondent.externalId).filter(Boolean))] as string[];
  for (const respondent of respondents) filtered[`respondent=${respondent}`] = await walk(`${base}/responses?respondent=${respondent}`, 3);
  const byOffset = (await ok('GET', `${base}/responses?limit=5&offset=5`)).responses.map((r: Json) => r.id);
  const byId: Json = {};
  for (const response of list.entries) byId[response.id] = (await ok('GET', `${base}/responses/${response.id}`)).response;
  const feed = await walk(`${base}/responses?updatedSince=${EPOCH}`, 6);
  const summaries: Json = {};
  for (const version of ['all', ...versions]) summaries[version] = (await ok('GET', `${base}/summary?versionId=${version}`)).summary;
  return { list, filtered, byOffset, byId, feed, summaries };
}

async function scanAll(): Promise<Json[]> {
  const items: Json[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(new ScanCommand({ TableName: store.table, ConsistentRead: true, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort((x, y) => `${x.pk}|${x.sk}`.localeCompare(`${y.pk}|${y.sk}`));
}

const isLegacyResponse = (item: Json) => item.entity === 'SurveyResponse' && String(item.sk).startsWith('SURVEYRESPONSE#');
const isLegacyMarker = (item: Json) => item.entity === 'SurveyResponseCounted' && String(item.sk).split('#').length === 3;

async function storedKeyOf(surveyId: string, responseId: string): Promise<'new' | 'legacy' | 'none'> {
  const at = async (sk: string) =>
    (
      await store.db.send(
        new QueryCommand({
          TableName: store.table,
          KeyConditionExpression: 'pk = :pk AND sk = :sk',
          ExpressionAttributeValues: { ':pk': keys.workspacePk(WORKSPACE), ':sk': sk },
          ConsistentRead: true,
        }),
      )
    ).Items?.length === 1;
  if (await at(keys.surveyResponse(WORKSPACE, surveyId, responseId).sk)) return 'new';
  if (await at(keys.legacySurveyResponse(WORKSPACE, surveyId, responseId).sk)) return 'legacy';
  return 'none';
}

/** A survey's summary recounted from its responses as the API lists them (independently of lib/surveys/summary). */
function recount(responses: Json[]): Json {
  const questions: Record<string, { shown: number; answered: number }> = {};
  for (const response of responses) {
    for (const id of response.path) {
      const question = questions[id] ?? { shown: 0, answered: 0 };
      questions[id] = question;
      question.shown += 1;
      if (response.answers[id] !== undefined) question.answered += 1;
    }
  }
  return {
    started: responses.length,
    finished: responses.filter((r) => r.status === 'finished').length,
    questions: Object.fromEntries(Object.entries(questions).sort(([x], [y]) => x.localeCompare(y))),
  };
}
function summaryCounts(summary: Json): Json {
  return {
    started: summary.responses.started,
    finished: summary.responses.finished,
    questions: Object.fromEntries(
      summary.questions
        .map((q: Json) => [q.questionId, { shown: q.shown, answered: q.answered }])
        .sort(([x]: string[], [y]: string[]) => x!.localeCompare(y!)),
    ),
  };
}

let before: { a: Json; b: Json; c: Json };
let cVersion: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'upgrade-'));
  execFileSync('tar', ['-xzf', join(FIXTURE, 'data-dir.tar.gz'), '-C', dataDir]);
  sandbox = await startSandboxProcess(dataDir);
  store = createLocalStore('cx-portal', sandbox.dynamodbEndpoint);
  key = (await createDeveloperKey(store, { workspace: WORKSPACE, permissions: [...PERMISSIONS], rateLimitPerMinute: 60_000 })).key;
  receiver = await startReceiver();
}, 300_000);

afterAll(async () => {
  await receiver?.close();
  await sandbox?.stop();
  store?.db.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a table written by main at 80f9095', () => {
  it('starts, says what is left to migrate, and serves every read from the older layout', async () => {
    expect(sandbox.output()).toContain('predates 2 layout change(s) (001-gsi1-projection, 002-survey-response-shards)');
    // With the port and folder to reach this sandbox by (not the default ones).
    expect(sandbox.output()).toContain(
      `Move its data with: DYNAMODB_PORT=${sandbox.ports.DYNAMODB_PORT} DATA_DIR=${resolve(dataDir)} npx cxctl migrate`,
    );
    const items = await scanAll();
    expect(items.filter(isLegacyResponse)).toHaveLength(a.responses.length + b.partial.length + b.finished.length + 3);
    expect(items.filter(isLegacyMarker).length).toBeGreaterThan(0);
    cVersion = (await ok('GET', `/surveys/${c.surveyId}`)).survey.publishedVersionId;
    before = { a: await readSurvey(a), b: await readSurvey(b), c: await readSurvey({ ...c, versionId: cVersion }) };
    expect(before.a.list.entries.map((r: Json) => r.id).sort()).toEqual([...a.responses].sort());
    expect(before.a.list.total).toBe(a.responses.length);
    // Newest first across both versions; the deleted and the erased one only as tombstones in the feed.
    expect(before.a.list.entries.map((r: Json) => r.id)).toEqual([...a.responses].sort().reverse());
    expect(
      before.a.feed.entries
        .filter((e: Json) => e.deleted)
        .map((e: Json) => e.id)
        .sort(),
    ).toEqual([a.deleted, a.erased].sort());
    expect(before.a.summaries.all.responses.started).toBe(a.responses.length);
    expect(before.a.byId[a.pinned].versionId).toBe(a.versionId);
    expect(before.b.filtered['status=partial'].total).toBe(b.partial.length);
    const status = cxctl(sandbox.dynamodbEndpoint, 'migrate', 'status');
    expect(await status.exited).toBe(0);
    expect(status.output()).toContain('002-survey-response-shards  not run yet');
  });

  it('counts what a dry run would change and writes nothing', async () => {
    const items = await scanAll();
    const dry = cxctl(sandbox.dynamodbEndpoint, 'migrate', '--dry-run');
    expect(await dry.exited).toBe(0);
    expect(dry.output()).toContain(`responses to move ${a.responses.length + b.partial.length + b.finished.length + 3}`);
    expect(dry.output()).toContain('tombstone feed entries to move 2');
    expect(dry.output()).toContain('surveys to give collecting copies 4');
    expect(await scanAll()).toEqual(items);
    const status = cxctl(sandbox.dynamodbEndpoint, 'migrate', 'status');
    expect(await status.exited).toBe(0);
    expect(status.output()).toContain('002-survey-response-shards  not run yet');
  });

  it('migrates while writes go on, resumes after a crash, and changes nothing when run again', async () => {
    const hook = await ok('POST', '/webhooks', { name: 'Finished', url: receiver.url, events: ['survey.response.finished'] });
    await ok('POST', `/webhooks/${hook.webhook.id}/enable`);

    // A run killed outright after its first step: its record says how far it got.
    const crashed = cxctl(sandbox.dynamodbEndpoint, 'migrate', '--rate', '30');
    await until(crashed.output, (text) => /002-survey-response-shards: items scanned 100/.test(text), 'the first step', 120_000);
    crashed.kill('SIGKILL');
    await crashed.exited;
    const halfway = cxctl(sandbox.dynamodbEndpoint, 'migrate', 'status', '--json');
    expect(await halfway.exited).toBe(0);
    const record = JSON.parse(halfway.output()).find((m: Json) => m.id === '002-survey-response-shards');
    expect(record.state).toBe('running');
    expect(record.counts['items scanned']).toBe(100);

    // A continuation of a response still in the older layout moves it.
    const legacyPartial: string[] = [];
    for (const id of b.partial) if ((await storedKeyOf(b.surveyId, id)) === 'legacy') legacyPartial.push(id);
    expect(legacyPartial.length).toBeGreaterThan(2);
    const moved = legacyPartial[0] as string;
    await ok('PATCH', `/surveys/${b.surveyId}/responses/${moved}`, { answers: { score: 8 }, finished: true }, { 'If-Match': '"1"' });
    expect(await storedKeyOf(b.surveyId, moved)).toBe('new');

    // The run that resumes, with writes beside it (two of them continue responses it has yet to move).
    const resumed = cxctl(sandbox.dynamodbEndpoint, 'migrate', '--rate', '30');
    const [continued, stillPartial] = legacyPartial.slice(1) as [string, string];
    const deleted = b.finished[0];
    const writes = await Promise.all([
      ok('PATCH', `/surveys/${b.surveyId}/responses/${continued}`, { answers: { score: 3 }, finished: true }, { 'If-Match': '"1"' }),
      ok('PATCH', `/surveys/${b.surveyId}/responses/${stillPartial}`, { answers: { plan: 'pro' } }, { 'If-Match': '"1"' }),
      ok('DELETE', `/surveys/${b.surveyId}/responses/${deleted}`),
      ok('POST', `/surveys/${b.surveyId}/responses`, { answers: { plan: 'free', score: 6 } }),
      ok('POST', `/surveys/${b.surveyId}/responses`, { answers: { plan: 'pro' }, finished: false }),
      api('POST', `/surveys/${c.surveyId}/responses`, { answers: { plan: 'pro', score: 9 } }),
    ]);
    expect(writes[5]).toMatchObject({ status: 409, body: { error: 'survey_not_collecting' } });
    expect(await resumed.exited).toBe(0);
    expect(resumed.output()).toContain('002-survey-response-shards: resuming where the last run stopped');
    expect(resumed.output()).toContain('002-survey-response-shards: finished');
    const created = [writes[3].response.id, writes[4].response.id];

    // A response submitted now is the last record the stream readers meet (DynamoDB Local keeps one
    // stream shard): once its delivery is recorded, every record the migration and the writes made has
    // been read. The fan-out records a delivery before it sends one, so the list is what it announced.
    const sentinel = (await ok('POST', `/surveys/${b.surveyId}/responses`, { answers: { plan: 'pro', score: 10 } })).response.id;
    const expectedIds = [moved, continued, writes[3].response.id, sentinel].sort();
    const received = await receiver.waitForRequests(4, {
      filter: (r) => r.json?.type === 'survey.response.finished',
      timeoutMs: 60_000,
    });
    expect(received.map((r) => r.json.data.responseId).sort()).toEqual(expectedIds);
    const deliveries = (await ok('GET', `/webhooks/${hook.webhook.id}/deliveries?limit=100`)).deliveries as Json[];
    // The finishes of this test and the sentinel; none for the fixture's finished responses the migration moved.
    expect(deliveries.filter((delivery) => delivery.eventType === 'survey.response.finished')).toHaveLength(4);

    // The stream readers have caught up (above); what the delivery function still records of its
    // attempts is left out.
    const settled = async () => (await scanAll()).filter((item) => !String(item.sk).startsWith('WHDELIVERY#'));
    const items = await settled();
    const again = cxctl(sandbox.dynamodbEndpoint, 'migrate');
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('Every migration has already run on this table: nothing to do');
    expect(await settled()).toEqual(items);
    expect(items.filter(isLegacyResponse)).toEqual([]);
    expect(items.filter(isLegacyMarker)).toEqual([]);
    for (const survey of [a, b, c, d]) {
      const copies = items.filter((item) => String(item.sk).startsWith(`SURVEYSTATE#${survey.surveyId}#`));
      expect(copies.map((copy) => copy.status)).toEqual(
        Array(keys.surveyCollectingCopies).fill(survey === c ? 'closed' : survey === d ? 'draft' : 'published'),
      );
    }

    const after = { a: await readSurvey(a), b: await readSurvey(b), c: await readSurvey({ ...c, versionId: cVersion }) };
    expect(after.a).toEqual(before.a);
    expect(after.c).toEqual(before.c);

    // Survey B: as it was, plus exactly the writes above.
    const byId = (list: Json[]) => new Map(list.map((r) => [r.id, r]));
    const was = byId(before.b.list.entries);
    const now = byId(after.b.list.entries);
    expect([...now.keys()].sort()).toEqual([...[...was.keys()].filter((id) => id !== deleted), ...created, sentinel].sort());
    for (const [id, response] of was) {
      if (id === deleted) continue;
      if ([moved, continued, stillPartial].includes(id)) expect(now.get(id).revision).toBe(response.revision + 1);
      else expect(now.get(id)).toEqual(response);
    }
    expect(now.get(moved)).toMatchObject({ status: 'finished', answers: { plan: 'free', score: 8 } });
    expect(after.b.filtered['status=partial'].total).toBe(after.b.list.entries.filter((r: Json) => r.status === 'partial').length);
    expect(after.b.filtered['status=finished'].total).toBe(after.b.list.entries.filter((r: Json) => r.status === 'finished').length);
    expect(after.b.feed.entries.find((e: Json) => e.id === deleted)).toMatchObject({ deleted: true });
    await until(
      async () => summaryCounts((await ok('GET', `/surveys/${b.surveyId}/summary?versionId=all`)).summary),
      (counts) => JSON.stringify(counts) === JSON.stringify(recount(after.b.list.entries)),
      "survey B's summary to equal a recount of its responses",
      30_000,
    );
  });
});
