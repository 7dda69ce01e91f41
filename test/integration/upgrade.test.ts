/**
 * Upgrading a table in place (issue 32 item 4, issue 28 item 1, issue 38 item 4): this release requires
 * migration 002 finished, so a sandbox started on a DATA_DIR that main's commit 80f9095 wrote
 * (test/fixtures/upgrade-80f9095, made by scripts/make-upgrade-fixture.ts: survey responses in the
 * layout before migration 002) holds at the release gate, saying what the deploy gate says, with
 * the command that migrates the table; `cxctl migrate` then moves it (a dry run writes nothing, a run
 * killed halfway resumes from its checkpoint, a second run changes nothing), the sandbox goes on by
 * itself, and every response, count, feed entry and summary is as the old layout held it. Neither
 * stream reader takes the moves for something new: the summary counts nothing twice, no finished
 * response is announced again.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { createLocalTableClient, type TableClient } from '../../lib/admin/table-client.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';
import { SURVEY_COLLECTING_COPIES } from '../../lib/surveys/entities.ts';
import { toResponse } from '../../lib/surveys/responses/record.ts';
import { webhookEntity } from '../../lib/webhooks/entities.ts';
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
let store: TableClient;
let key: string;
let receiver: Receiver;
let cloudFormation: Server;
const answers: { Status: string; Reason?: string; PhysicalResourceId: string }[] = [];
let gate: (event: unknown) => Promise<void>;

/** The release gate's custom resource on this table, as `cdk deploy` of a stack named CxPortalApi runs it: its answer. */
async function deployGate(): Promise<(typeof answers)[number]> {
  await gate({
    RequestType: 'Update',
    ResponseURL: `http://127.0.0.1:${(cloudFormation.address() as AddressInfo).port}/answer?signature=presigned`,
    StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/CxPortalApi/1',
    RequestId: `gate-${answers.length}`,
    LogicalResourceId: 'ReleaseGate',
    PhysicalResourceId: 'release-gate',
    ResourceProperties: {
      ServiceToken: 'arn:aws:lambda:…',
      RequiredMigrations: [
        {
          id: '002-survey-response-shards',
          title: 'Survey responses in 64 ranges, their change feed under 16 keys, markers at hashed keys, collecting copies',
        },
      ],
      MigrateCommand: 'npx cxctl --stack CxPortalApi migrate',
    },
  });
  return answers.at(-1)!;
}

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

/** Every response as the older layout holds it, as the API shows a response (by id). */
let before: Map<string, Json>;
let cVersion: string;

/** An enabled webhook for finished responses, written as the API would have written it before the upgrade. */
async function subscribe(url: string): Promise<string> {
  const id = '0190f000-0000-7000-8000-00000000b00c';
  const now = new Date().toISOString();
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: {
        ...webhookEntity.keys.webhook(WORKSPACE, id),
        entity: webhookEntity.name,
        id,
        workspace: WORKSPACE,
        name: 'Finished',
        url,
        events: ['survey.response.finished'],
        enabled: true,
        secret: 'whsec_upgrade-test-secret-0000000000000000',
        secretPrefix: 'whsec_up',
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
  return id;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'upgrade-'));
  execFileSync('tar', ['-xzf', join(FIXTURE, 'data-dir.tar.gz'), '-C', dataDir]);
  sandbox = await startSandboxProcess(dataDir, { heldAtGate: true });
  store = createLocalTableClient('cx-portal', sandbox.dynamodbEndpoint);
  receiver = await startReceiver();
  cloudFormation = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      answers.push(JSON.parse(body));
      response.end();
    });
  });
  await new Promise<void>((ready) => cloudFormation.listen(0, '127.0.0.1', ready));
  // The deploy gate's function, as CloudFormation invokes it, on this sandbox's table.
  Object.assign(process.env, {
    TABLE_NAME: 'cx-portal',
    AWS_ENDPOINT_URL_DYNAMODB: sandbox.dynamodbEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  gate = (await import('../../functions/stack/release-gate.ts')).handler as never;
}, 300_000);

afterAll(async () => {
  cloudFormation?.close();
  await receiver?.close();
  await sandbox?.stop();
  store?.db.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a table written by main at 80f9095', () => {
  it('holds the sandbox at the release gate with the deploy gate’s refusal and the command that migrates it', async () => {
    const refusal =
      'Table cx-portal has not finished layout migration 002-survey-response-shards, which this release requires: ' +
      'it no longer reads the layout from before. Run ';
    expect(sandbox.output()).toContain(
      `✖ ${refusal}\`DYNAMODB_PORT=${sandbox.ports.DYNAMODB_PORT} DATA_DIR=${resolve(dataDir)} npx cxctl migrate\``,
    );
    // Nothing but DynamoDB Local is up: the API does not answer.
    await expect(fetch(`${sandbox.apiUrl}/me`)).rejects.toThrow();
    // `cdk deploy` onto this table fails at the gate with the same words, naming the stack's command.
    const refused = await deployGate();
    expect(refused.Status).toBe('FAILED');
    expect(refused.Reason).toBe(
      `Error: ${refusal}\`npx cxctl --stack CxPortalApi migrate\` (it resumes where it stopped), then deploy again ` +
        '(the release deployed now keeps serving meanwhile). docs/operating.md ("Upgrading") says which releases may be skipped.',
    );
    const items = await scanAll();
    expect(items.filter(isLegacyResponse)).toHaveLength(a.responses.length + b.partial.length + b.finished.length + 3);
    expect(items.filter(isLegacyMarker).length).toBeGreaterThan(0);
    before = new Map(items.filter(isLegacyResponse).map((item) => [item.id, toResponse(item)]));
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

  it('migrates, resumes after a crash, changes nothing when run again, and then the sandbox goes on', async () => {
    // A webhook the table already had: the stream records of the moves must not reach it as finishes.
    const hookId = await subscribe(receiver.url);

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
    expect((await deployGate()).Status).toBe('FAILED');

    const resumed = cxctl(sandbox.dynamodbEndpoint, 'migrate', '--rate', '30');
    expect(await resumed.exited).toBe(0);
    expect(resumed.output()).toContain('002-survey-response-shards: resuming where the last run stopped');
    expect(resumed.output()).toContain('002-survey-response-shards: finished');

    // The gate opens: the sandbox goes on by itself, and the deploy gate passes.
    await sandbox.ready();
    expect(sandbox.output()).toContain('✔ Every migration this release requires has finished: starting');
    expect(await deployGate()).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'release-gate' });
    key = (await createDeveloperKey(store, { workspace: WORKSPACE, permissions: [...PERMISSIONS], rateLimitPerMinute: 60_000 })).key;

    // Every response as the older layout held it, read by id and listed.
    for (const [id, response] of before)
      expect((await ok('GET', `/surveys/${response.surveyId}/responses/${id}`)).response).toEqual(response);
    cVersion = (await ok('GET', `/surveys/${c.surveyId}`)).survey.publishedVersionId;
    const atStart = { a: await readSurvey(a), b: await readSurvey(b), c: await readSurvey({ ...c, versionId: cVersion }) };
    // Newest first across both versions; the deleted and the erased one only as tombstones in the feed.
    expect(atStart.a.list.entries.map((r: Json) => r.id)).toEqual([...a.responses].sort().reverse());
    expect(atStart.a.list.total).toBe(a.responses.length);
    expect(
      atStart.a.feed.entries
        .filter((e: Json) => e.deleted)
        .map((e: Json) => e.id)
        .sort(),
    ).toEqual([a.deleted, a.erased].sort());
    expect(atStart.a.summaries.all.responses.started).toBe(a.responses.length);
    expect(atStart.a.byId[a.pinned].versionId).toBe(a.versionId);
    expect(atStart.b.filtered['status=partial'].total).toBe(b.partial.length);
    expect(atStart.b.filtered['status=finished'].total).toBe(b.finished.length);
    for (const survey of [atStart.a, atStart.b, atStart.c]) {
      for (const entry of survey.list.entries) expect(entry).toEqual(before.get(entry.id));
      expect(summaryCounts(survey.summaries.all)).toEqual(recount(survey.list.entries));
    }

    // The stream readers have caught up once they have read a response submitted now (DynamoDB Local
    // keeps one stream shard); the fan-out records a delivery before it sends one.
    const items = await scanAll();
    const again = cxctl(sandbox.dynamodbEndpoint, 'migrate');
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('Every migration has already run on this table: nothing to do');
    expect(items.filter(isLegacyResponse)).toEqual([]);
    expect(items.filter(isLegacyMarker)).toEqual([]);
    for (const survey of [a, b, c, d]) {
      const copies = items.filter((item) => String(item.sk).startsWith(`SURVEYSTATE#${survey.surveyId}#`));
      expect(copies.map((copy) => copy.status)).toEqual(
        Array(SURVEY_COLLECTING_COPIES).fill(survey === c ? 'closed' : survey === d ? 'draft' : 'published'),
      );
    }

    // Writes on the new layout: a continuation that finishes, a delete, submits; a closed survey refuses.
    const [continued, stillPartial] = b.partial as [string, string];
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
    const created = [writes[3].response.id, writes[4].response.id];
    const sentinel = (await ok('POST', `/surveys/${b.surveyId}/responses`, { answers: { plan: 'pro', score: 10 } })).response.id;
    const expectedIds = [continued, writes[3].response.id, sentinel].sort();
    const received = await receiver.waitForRequests(3, {
      filter: (r) => r.json?.type === 'survey.response.finished',
      timeoutMs: 60_000,
    });
    expect(received.map((r) => r.json.data.responseId).sort()).toEqual(expectedIds);
    const deliveries = (await ok('GET', `/webhooks/${hookId}/deliveries?limit=100`)).deliveries as Json[];
    // The finishes of this test; none for the fixture's finished responses the migration moved.
    expect(deliveries.filter((delivery) => delivery.eventType === 'survey.response.finished')).toHaveLength(3);

    const after = { a: await readSurvey(a), b: await readSurvey(b), c: await readSurvey({ ...c, versionId: cVersion }) };
    expect(after.a).toEqual(atStart.a);
    expect(after.c).toEqual(atStart.c);

    // Survey B: as it was, plus exactly the writes above.
    const byId = (list: Json[]) => new Map(list.map((r) => [r.id, r]));
    const was = byId(atStart.b.list.entries);
    const now = byId(after.b.list.entries);
    expect([...now.keys()].sort()).toEqual([...[...was.keys()].filter((id) => id !== deleted), ...created, sentinel].sort());
    for (const [id, response] of was) {
      if (id === deleted) continue;
      if ([continued, stillPartial].includes(id)) expect(now.get(id).revision).toBe(response.revision + 1);
      else expect(now.get(id)).toEqual(response);
    }
    expect(now.get(continued)).toMatchObject({ status: 'finished', answers: { score: 3 } });
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
