/**
 * A tenant offboarded with cxctl, as an operator does it: `workspace export` hands over every record
 * of a workspace filled with the demo data set (no secret, no hash), then `workspace delete` removes
 * every item and object of it (its request budget's shards, in partitions of their own, too) and
 * stops its webhooks, while another workspace filled the same way
 * stays exactly as it was, item for item and object for object. The deletion's own stream records
 * write nothing back (the consumers skip a workspace being deleted: checked after both consumers have
 * provably processed later records), and the slug can be created again, empty.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DemoResult, runDemo } from '../../cli/demo/run.ts';
import { deleteItems, existingKeys } from '../../lib/admin/table-io.ts';
import { createWorkspace, setWorkspaceStatus } from '../../lib/admin/workspaces.ts';
import { kbSearchManifestEntity } from '../../lib/knowledge-bank/search/entities.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { WORKSPACE_COPIES } from '../../lib/platform/data/workspace-record.ts';
import { everyBudgetShardKey } from '../../lib/platform/tenants/keys.ts';
import { countedMarkerEntity } from '../../lib/surveys/summary/entities.ts';
import { adminStore, call, clientFor, sandbox, uniqueSlug } from '../support/fixtures.ts';
import { createArticle, createCategory, para, publish } from '../support/knowledge-bank.ts';
import { cxctl, cxctlJson, objectsUnder, partitionItems, until } from '../support/operator.ts';
import { submitResponse } from '../support/survey-responses.ts';

const work = mkdtempSync(join(tmpdir(), 'offboarding-'));
let leaving: DemoResult & { key: string; surveyId: string };
let staying: DemoResult & { key: string; surveyId: string };

/** A demo workspace whose derived data has settled: its search index built, its responses counted, an export file written. */
async function demoWorkspace(prefix: string, withExport: boolean) {
  const result = await runDemo(adminStore(), { workspace: uniqueSlug(prefix), apiUrl: sandbox.apiUrl, log: () => {} });
  const api = clientFor({ host: result.host, key: result.key! });
  const surveyId = ((await api.get('/surveys')).body.surveys as { id: string }[])[0]!.id;
  await until(
    async () => Object.keys(await objectsUnder('searchIndex', `search-index/${result.workspace}/manifest.json`)).length === 1,
    'the search index',
  );
  await until(async () => {
    const items = await partitionItems(result.workspace);
    const responses = items.filter((i) => i.entity === 'SurveyResponse').length;
    return responses > 0 && items.filter((i) => i.entity === 'SurveyResponseCounted').length === responses;
  }, 'the summary to count every response');
  if (withExport) {
    const created = await api.post(`/surveys/${surveyId}/exports`, { body: { format: 'csv', labels: 'en' } });
    expect(created.status, created.text).toBe(202);
    const exportId = created.body.export.id as string;
    await until(async () => (await api.get(`/surveys/${surveyId}/exports/${exportId}`)).body.export?.status === 'done', 'the export file');
  }
  return { ...result, key: result.key!, surveyId };
}

beforeAll(async () => {
  [leaving, staying] = await Promise.all([demoWorkspace('leaving', true), demoWorkspace('staying', false)]);
}, 900_000);

describe('cxctl workspace export', () => {
  it('writes every record of the workspace as documented NDJSON, accounting for every item it leaves out', {
    timeout: 60_000,
  }, async () => {
    const items = await partitionItems(leaving.workspace);
    const file = join(work, 'export.ndjson');
    const summary = await cxctlJson(['workspace', 'export', leaving.workspace, '--out', file]);
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const [header, ...rest] = lines;
    const end = rest.pop();
    expect(header).toMatchObject({ format: 'cx-portal-workspace-export', version: 1, workspace: leaving.workspace });
    expect(end).toMatchObject({ type: 'end', records: rest.length, byType: summary.byType, leftOut: summary.leftOut });
    const leftOut = Object.values(end.leftOut as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(rest.length + leftOut).toBe(items.length);
    // One record per item of each exported kind: every idea, response, article, key, webhook…
    const count = (entity: string) => items.filter((i) => i.entity === entity).length;
    expect(summary.byType).toMatchObject({
      workspace: 1,
      idea: count('Idea'),
      surveyResponse: count('SurveyResponse'),
      knowledgeBankArticle: count('KbArticle'),
      journeyVersion: count('JourneyVersion'),
      developerKey: count('DeveloperKey'),
      webhook: 1,
      sop: count('Sop'),
    });
    expect(count('SurveyResponse')).toBeGreaterThan(0);
    // Documents as the JSON they hold: a journey version's stages, not compressed bytes.
    expect(rest.find((l) => l.type === 'journeyVersion').data.content.stages.length).toBeGreaterThan(0);
    // Respondents' identifiers as stored.
    for (const response of items.filter((i) => i.entity === 'SurveyResponse')) {
      const exported = rest.find((l) => l.type === 'surveyResponse' && l.data.id === response.id);
      expect(exported.data.respondentExternalId).toBe(response.respondentExternalId);
    }
  });

  it('writes no secret, no key hash and no keyed hash of a person', { timeout: 60_000 }, async () => {
    const items = await partitionItems(leaving.workspace);
    const file = join(work, 'secrets.ndjson');
    await cxctlJson(['workspace', 'export', leaving.workspace, '--out', file]);
    const text = readFileSync(file, 'utf8');
    const secrets = [
      ...items.filter((i) => i.entity === 'Webhook').map((i) => i.secret),
      ...items.filter((i) => i.entity === 'DeveloperKey').map((i) => i.secretHash),
      ...items.filter((i) => i.entity === 'Idea' && i.submitterHash).map((i) => i.submitterHash),
      ...items.filter((i) => i.entity === 'SurveyRespondent').map((i) => String(i.sk).split('#')[1]),
      leaving.key,
      leaving.webhookSecret,
    ].filter(Boolean) as string[];
    expect(secrets.length).toBeGreaterThan(20);
    for (const secret of secrets) expect(text.includes(secret), secret.slice(0, 8)).toBe(false);
  });

  it('refuses a workspace that does not exist, and leaves no file', { timeout: 60_000 }, async () => {
    const file = join(work, 'none.ndjson');
    const result = await cxctl(['workspace', 'export', uniqueSlug('nobody'), '--out', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/does not exist/);
    expect(() => readFileSync(file)).toThrow();
  });
});

/** A new workspace is its item and the copies authentication reads (lib/admin/workspaces.ts). */
const COPY_KEYS = Array.from({ length: WORKSPACE_COPIES }, (_, copy) => `WORKSPACE#COPY#${copy}`);

describe('cxctl workspace delete', () => {
  it('refuses an active workspace, and a deletion not confirmed with the slug, changing nothing', { timeout: 120_000 }, async () => {
    const before = (await partitionItems(leaving.workspace)).length;
    const active = await cxctl(['workspace', 'delete', leaving.workspace, '--confirm', leaving.workspace]);
    expect(active.code).toBe(1);
    expect(active.stderr).toMatch(/is active: suspend it first/);
    await setWorkspaceStatus(adminStore(), leaving.workspace, 'suspended');
    for (const confirm of [[], ['--confirm', staying.workspace]]) {
      const refused = await cxctl(['workspace', 'delete', leaving.workspace, ...confirm]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`repeat its slug with --confirm ${leaving.workspace}`));
    }
    expect((await partitionItems(leaving.workspace)).length).toBe(before);
  });

  it('removes every item and object of the workspace and stops its webhooks; the other workspace stays as it was', {
    timeout: 300_000,
  }, async () => {
    const slug = leaving.workspace;
    await setWorkspaceStatus(adminStore(), slug, 'suspended');
    const itemsBefore = await partitionItems(slug);
    const searchBefore = await objectsUnder('searchIndex', `search-index/${slug}/`);
    const exportsBefore = await objectsUnder('surveyExports', `survey-exports/${slug}/`);
    expect(Object.keys(searchBefore).length).toBeGreaterThan(0);
    expect(Object.keys(exportsBefore)).toHaveLength(1);
    const stayingItems = await partitionItems(staying.workspace);
    const stayingObjects = await objectsUnder('searchIndex', `search-index/${staying.workspace}/`);
    // The request budget's shards live in partitions of their own: the demo's requests counted in some.
    const budgetShards = (workspace: string) => existingKeys(adminStore(), everyBudgetShardKey(workspace));
    const shardsBefore = await budgetShards(slug);
    expect(shardsBefore.length).toBeGreaterThan(0);
    const stayingShards = await budgetShards(staying.workspace);
    expect(stayingShards.length).toBeGreaterThan(0);

    const report = await cxctlJson(['workspace', 'delete', slug, '--confirm', slug, '--settle', '1']);
    expect(report).toMatchObject({
      workspace: slug,
      resumed: false,
      webhooksStopped: 1,
      objects: { searchIndex: Object.keys(searchBefore).length, surveyExports: 1 },
      stragglers: 0,
    });
    expect(report.items.WorkspaceBudgetShard).toBe(shardsBefore.length);
    expect(Object.values(report.items as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(itemsBefore.length + shardsBefore.length);

    expect(await partitionItems(slug)).toEqual([]);
    expect(await budgetShards(slug)).toEqual([]);
    expect(await budgetShards(staying.workspace)).toEqual(stayingShards);
    expect(await objectsUnder('searchIndex', `search-index/${slug}/`)).toEqual({});
    expect(await objectsUnder('surveyExports', `survey-exports/${slug}/`)).toEqual({});
    expect((await call('GET', '/me', { host: leaving.host, key: leaving.key })).status).toBe(401);
    // The other workspace, item for item and object for object.
    expect(await partitionItems(staying.workspace)).toEqual(stayingItems);
    expect(await objectsUnder('searchIndex', `search-index/${staying.workspace}/`)).toEqual(stayingObjects);

    // Both stream consumers have now handled records written after the deletion's own: a response
    // (the fan-out and summary aggregator) and a publish (the search builder) in the other workspace.
    const sentinel = await submitResponse(staying.workspace, {
      surveyId: staying.surveyId,
      versionId: stayingItems.find((i) => i.entity === 'Survey')!.publishedVersionId as string,
      status: 'finished',
      answers: {},
      path: [],
    });
    const api = clientFor({ host: staying.host, key: staying.key });
    const manifestVersion = async () =>
      (await partitionItems(staying.workspace)).find((i) => i.sk === 'KBSEARCH#MANIFEST')?.version as number;
    const version = await manifestVersion();
    const category = await createCategory(api, { nameEn: 'Later' });
    const article = await createArticle(api, {
      titleEn: 'After the deletion',
      categoryId: category.id,
      blocks: [para('Published after another workspace was deleted.')],
    });
    await publish(api, article.id);
    await until(async () => {
      const items = await partitionItems(staying.workspace);
      return items.some((i) => i.sk === countedMarkerEntity.keys.marker(staying.workspace, staying.surveyId, sentinel.id).sk);
    }, 'the aggregator to count a later response');
    await until(async () => (await manifestVersion()) > version, 'the search builder to index a later publish');
    expect(await partitionItems(slug)).toEqual([]);
    expect(await objectsUnder('searchIndex', `search-index/${slug}/`)).toEqual({});

    // The slug is free again, and the workspace made with it is empty.
    await cxctlJson(['workspace', 'create', slug]);
    expect((await partitionItems(slug)).map((i) => i.sk)).toEqual(['WORKSPACE', ...COPY_KEYS]);
  });

  it('goes on from what an interrupted run left, and refuses any other change meanwhile', { timeout: 180_000 }, async () => {
    const slug = uniqueSlug('interrupted');
    await createWorkspace(adminStore(), slug);
    const key = (await cxctlJson(['key', 'create', '--workspace', slug, '--all'])).key as string;
    const api = clientFor({ host: `${slug}.localhost`, key });
    for (const title of ['One', 'Two', 'Three'])
      expect((await api.post('/ideas', { body: { title, description: title } })).status).toBe(201);
    await setWorkspaceStatus(adminStore(), slug, 'suspended');
    // Where a run stops after marking the workspace and deleting part of it.
    await adminStore().db.send(
      new UpdateCommand({
        TableName: adminStore().table,
        Key: keys.workspace(slug),
        UpdateExpression: 'SET #status = :deleting',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deleting': 'deleting' },
      }),
    );
    const items = await partitionItems(slug);
    await deleteItems(adminStore(), items.filter((i) => i.entity === 'Idea').slice(0, 2) as { pk: string; sk: string }[]);

    const resume = await cxctl(['workspace', 'resume', slug]);
    expect(resume.stderr).toMatch(/is being deleted: finish with cxctl workspace delete/);
    // The API refuses it as it refuses a suspended workspace.
    expect((await call('GET', '/me', { host: `${slug}.localhost`, key })).body).toMatchObject({ error: 'workspace_suspended' });

    const report = await cxctlJson(['workspace', 'delete', slug, '--confirm', slug, '--settle', '0']);
    expect(report).toMatchObject({ resumed: true, items: { Idea: 1, Workspace: 1 } });
    expect(await partitionItems(slug)).toEqual([]);

    // Something written after the run ended (an invocation that outlived it): a later run removes it.
    await adminStore().db.send(
      new PutCommand({
        TableName: adminStore().table,
        Item: { ...kbSearchManifestEntity.keys.manifest(slug), entity: 'KbSearchManifest', version: 1 },
      }),
    );
    const leftovers = await cxctlJson(['workspace', 'delete', slug, '--confirm', slug, '--settle', '0']);
    expect(leftovers).toMatchObject({ resumed: true, items: { KbSearchManifest: 1 } });
    expect(await partitionItems(slug)).toEqual([]);
    const gone = await cxctl(['workspace', 'delete', slug, '--confirm', slug]);
    expect(gone).toMatchObject({ code: 1, stderr: expect.stringMatching(/does not exist/) });
  });
});
