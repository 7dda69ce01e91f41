/**
 * cxctl's backup and rebuild commands against the sandbox, as docs/operating.md runs them:
 *   - `backup verify` judges the sandbox's table and the template it deploys;
 *   - `rebuild search` puts back an index whose objects are gone (a redeployed stack's new bucket);
 *   - `rebuild summaries` counts what the stream lost (a batch that exhausted the aggregator's
 *     retries, a removal never counted), equal to what the stream would have made, and changes
 *     nothing when run again; both go on from where an interrupted run stopped;
 *   - `--table` with no region says how to give one.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUCKETS } from '../../lib/admin/sandbox-buckets.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { adminStore, clientFor, newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { createArticle, createCategory, para, publish } from '../support/knowledge-bank.ts';
import { cxctl, cxctlJson, objectsUnder, operatorEnvironment, partitionItems, s3, until } from '../support/operator.ts';
import { deleteResponse, type StoredResponse, submitResponse } from '../support/survey-responses.ts';
import { publishedSurvey } from '../support/surveys.ts';

const store = adminStore();

async function putJob(job: string, state: unknown): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: {
        ...keys.operatorJob(job),
        entity: 'OperatorJob',
        job,
        startedAt: '2026-11-26T00:00:00.000Z',
        updatedAt: '2026-11-26T00:00:00.000Z',
        state,
      },
    }),
  );
}

async function jobExists(job: string): Promise<boolean> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.operatorJob(job), ConsistentRead: true }));
  return Item !== undefined;
}

describe('cxctl backup verify', () => {
  it("passes the sandbox's table and the template it deploys, and says what the sandbox cannot have", { timeout: 120_000 }, async () => {
    const env = { ...operatorEnvironment(), DATA_DIR: join(mkdtempSync(join(tmpdir(), 'verify-')), 'none') };
    const report = await cxctlJson(['backup', 'verify'], env);
    expect(report.ok).toBe(true);
    const verdicts = Object.fromEntries((report.checks as { what: string; ok: boolean | null }[]).map((c) => [c.what, c.ok]));
    expect(verdicts).toMatchObject({
      'point-in-time recovery': null,
      'deletion protection': true,
      stream: true,
      'time to live': true,
      'table when the stack is deleted': true,
      'signing secret when the stack is deleted': true,
      'bucket KnowledgeBankSearchIndexBucket when the stack is deleted': true,
      'bucket SurveyExportBucket when the stack is deleted': true,
      'signing secret': null,
    });
    // Every variable that reaches this sandbox (its ports are not the defaults), as every hint names them (issue 37 item 3).
    expect(report.redeploy).toBe(
      `DYNAMODB_PORT=${new URL(sandbox.dynamodbEndpoint).port} SQS_PORT=${new URL(sandbox.sqsEndpoint).port} ` +
        `DATA_DIR=${env.DATA_DIR} TABLE_NAME=${sandbox.tableName} npm start`,
    );
    const human = await cxctl(['backup', 'verify'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('✓ table when the stack is deleted: retained');
  });

  it('says how to give a region instead of the SDK\'s "Region is missing"', { timeout: 60_000 }, async () => {
    const home = mkdtempSync(join(tmpdir(), 'no-aws-'));
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      AWS_CONFIG_FILE: join(home, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
    };
    const result = await cxctl(['--table', 'CxPortalApi-Table', 'workspace', 'create', 'acme'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^cxctl: No AWS region: pass --region \(e\.g\. --region eu-west-1\), set AWS_REGION, or use a profile/);
    expect(result.stderr).not.toMatch(/Region is missing/);
  });
});

describe('cxctl rebuild search', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await newWorkspace('rebuild-search');
    const api = clientFor(ws);
    const category = await createCategory(api, { nameEn: 'Billing' });
    const article = await createArticle(api, {
      titleEn: 'Rotate the billing key',
      categoryId: category.id,
      blocks: [para('Rotate the billing key every quarter.')],
    });
    await publish(api, article.id);
    await until(
      async () => `search-index/${ws.slug}/manifest.json` in (await objectsUnder('searchIndex', `search-index/${ws.slug}/`)),
      'the index',
    );
  });

  it('builds an index whose objects are gone again from the live articles, and again on a second run', { timeout: 120_000 }, async () => {
    const prefix = `search-index/${ws.slug}/`;
    const manifest = async () => (await partitionItems(ws.slug)).find((i) => i.sk === 'KBSEARCH#MANIFEST') as Record<string, any>;
    // A stack deleted and deployed again onto the retained table: a new, empty bucket.
    const objects = Object.keys(await objectsUnder('searchIndex', prefix));
    await s3.send(new DeleteObjectsCommand({ Bucket: SANDBOX_BUCKETS.searchIndex, Delete: { Objects: objects.map((Key) => ({ Key })) } }));
    const before = await manifest();

    const first = await cxctlJson(['rebuild', 'search', '--workspace', ws.slug]);
    expect(first).toMatchObject({ workspace: ws.slug, result: 'rebuilt', articles: 1 });
    const after = await manifest();
    expect(after.version).toBe(before.version + 1);
    expect(Object.keys(await objectsUnder('searchIndex', prefix)).sort()).toEqual([after.base.key, `${prefix}manifest.json`].sort());
    const found = await clientFor(ws).get('/knowledge-bank/search?q=billing%20key');
    expect(found.body.results.map((r: { title: string }) => r.title)).toEqual(['Rotate the billing key']);

    await cxctlJson(['rebuild', 'search', '--workspace', ws.slug]);
    const again = await manifest();
    expect(again.version).toBe(after.version + 1);
    // The superseded base is deleted: still one base and the manifest copy.
    expect(Object.keys(await objectsUnder('searchIndex', prefix)).sort()).toEqual([again.base.key, `${prefix}manifest.json`].sort());
  });

  it('writes no index for a workspace with nothing published, and refuses one that does not exist', { timeout: 120_000 }, async () => {
    const empty = await newWorkspace('rebuild-empty');
    expect(await cxctlJson(['rebuild', 'search', '--workspace', empty.slug])).toMatchObject({ result: 'nothing-to-index' });
    expect(await objectsUnder('searchIndex', `search-index/${empty.slug}/`)).toEqual({});
    // One that had an index, its articles since unpublished: the index goes, rather than an empty one written.
    const emptied = await newWorkspace('rebuild-emptied');
    const api = clientFor(emptied);
    const article = await createArticle(api, {
      titleEn: 'Soon unpublished',
      categoryId: (await createCategory(api, { nameEn: 'Gone' })).id,
      blocks: [para('Nothing stays published here.')],
    });
    await publish(api, article.id);
    const prefix = `search-index/${emptied.slug}/`;
    const search = async () => (await api.get('/knowledge-bank/search?q=unpublished')).body.results as unknown[];
    await until(async () => (await search()).length === 1, 'the article searchable');
    expect((await api.post(`/knowledge-bank/articles/${article.id}/unpublish`, { headers: { 'If-Match': '*' } })).status).toBe(200);
    await until(async () => (await search()).length === 0, 'the unpublish indexed');
    expect(await cxctlJson(['rebuild', 'search', '--workspace', emptied.slug])).toMatchObject({ result: 'nothing-to-index' });
    expect(await objectsUnder('searchIndex', prefix)).toEqual({});
    expect((await partitionItems(emptied.slug)).filter((i) => i.sk === 'KBSEARCH#MANIFEST')).toEqual([]);
    expect(await search()).toEqual([]);

    const missing = await cxctl(['rebuild', 'search', '--workspace', 'no-such-workspace-here']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/does not exist/) });
  });

  it('goes on after the last workspace an interrupted --all run finished', { timeout: 120_000 }, async () => {
    // Past every slug of this run: the resumed run has nothing left, and leaves other tests' indexes alone.
    await putJob('rebuild-search', { after: 'zzzz' });
    const resumed = await cxctl(['rebuild', 'search', '--all']);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Progress on stderr, the result on stdout.
    expect(resumed.stderr).toMatch(/^Going on after zzzz \(a run started 2026-11-26T00:00:00.000Z got that far; --restart starts over\)/m);
    expect(resumed.stdout).toContain('Search indexes rebuilt: 0 of 0 workspace(s)');
    expect(await jobExists('rebuild-search')).toBe(false);
  });
});

describe('cxctl rebuild summaries', () => {
  let ws: TestWorkspace;
  let surveyId: string;
  let versionId: string;
  const summary = async () => (await clientFor(ws).get(`/surveys/${surveyId}/summary`)).body;
  const markersOf = async () => (await partitionItems(ws.slug)).filter((i) => i.entity === 'SurveyResponseCounted');
  const answer = (score: number, plan: string) => ({ status: 'finished' as const, answers: { plan, score }, path: ['plan', 'score'] });

  beforeAll(async () => {
    ws = await newWorkspace('rebuild-summaries');
    ({ surveyId, versionId } = await publishedSurvey(clientFor(ws)));
  });

  it('counts what the stream lost, exactly as the stream would have, and changes nothing when run again', {
    timeout: 120_000,
  }, async () => {
    const first: StoredResponse[] = [];
    for (const [score, plan] of [
      [10, 'pro'],
      [9, 'free'],
      [3, 'team'],
      [7, 'pro'],
      [8, 'free'],
      [0, 'pro'],
    ] as const)
      first.push(await submitResponse(ws.slug, { surveyId, versionId, ...answer(score, plan) }));
    await until(async () => (await summary()).summary?.responses?.started === 6, 'six responses counted');
    // What the day buckets and markers held then.
    const counted = (await partitionItems(ws.slug)).filter((i) => i.entity === 'SurveyResponseCounted' || i.entity === 'SurveyDayBucket');

    for (const [score, plan] of [
      [10, 'team'],
      [4, 'free'],
      [9, 'pro'],
    ] as const)
      await submitResponse(ws.slug, { surveyId, versionId, ...answer(score, plan) });
    await deleteResponse(ws.slug, first[2]!);
    await until(async () => (await summary()).summary?.responses?.started === 8, 'eight responses counted');
    const right = await summary();

    // The stream's work since then lost: three responses never counted, one removal never counted.
    for (const item of (await partitionItems(ws.slug)).filter(
      (i) => i.entity === 'SurveyResponseCounted' || i.entity === 'SurveyDayBucket',
    ))
      await store.db.send(new DeleteCommand({ TableName: store.table, Key: { pk: item.pk, sk: item.sk } }));
    for (const item of counted) await store.db.send(new PutCommand({ TableName: store.table, Item: item }));
    expect((await summary()).summary.responses.started).toBe(6);

    const [rebuilt] = await cxctlJson(['rebuild', 'summaries', '--workspace', ws.slug, '--survey', surveyId]);
    expect(rebuilt).toMatchObject({ surveyId, responses: 8, removals: 1, matchesRecount: true, differences: 0 });
    expect(rebuilt.transactions).toBeGreaterThan(0);
    expect(await summary()).toEqual(right);

    const [again] = await cxctlJson(['rebuild', 'summaries', '--workspace', ws.slug]);
    expect(again).toMatchObject({ surveyId, responses: 8, removals: 0, transactions: 0, matchesRecount: true });
    expect(await summary()).toEqual(right);
    expect((await markersOf()).filter((m) => !m.removed)).toHaveLength(8);
  });

  it('goes on from the page an interrupted run got to, and says it cannot compare then', { timeout: 120_000 }, async () => {
    await putJob(`rebuild-summaries#${ws.slug}`, { surveyId, phase: 'markers', startKey: null });
    const resumed = await cxctl(['rebuild', 'summaries', '--workspace', ws.slug]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Going on at survey ${surveyId}`);
    expect(resumed.stdout).toContain(
      `survey ${surveyId}: 0 response(s), 0 removal(s) replayed, 0 bucket transaction(s); resumed: not compared with a recount`,
    );
    expect(await jobExists(`rebuild-summaries#${ws.slug}`)).toBe(false);
  });

  it('refuses a survey the workspace does not have', { timeout: 120_000 }, async () => {
    const result = await cxctl(['rebuild', 'summaries', '--workspace', ws.slug, '--survey', '01900000-0000-7000-8000-000000000000']);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/has no survey 01900000/) });
  });
});
