/**
 * Survey summaries and exports in `npm run bench`, sized by environment variables so the default run
 * stays quick (the 100,000-response export is one deliberate run: BENCH_EXPORT_RESPONSES=100000):
 *   - counter writes per 1,000 responses: BENCH_SUMMARY_RESPONSES (default 1,000) responses to one
 *     survey written as fast as BatchWriteItem goes, then how many times the aggregator rewrote their
 *     day bucket (its `lock` counts the writes) and how long until the summary showed them all;
 *   - GET /surveys/{id}/summary over those responses (a scenario of the table);
 *   - an export of BENCH_EXPORT_RESPONSES (default 2,000): time to `done` and the sandbox process's
 *     peak RSS above its level before (the writer runs in this process; DynamoDB Local does not).
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../lib/platform/data/keys.ts';
import { surveyResponseEntity } from '../lib/surveys/responses/entities.ts';
import { dayBucketEntity } from '../lib/surveys/summary/entities.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { type BenchContext, benchWorkspace, draftSurvey, publishSurvey, type Scenario, send } from './harness.ts';

const definition = {
  languages: ['en'],
  questions: [
    {
      id: 'plan',
      type: 'singleChoice',
      headline: { en: 'Plan?' },
      required: true,
      options: ['free', 'pro', 'team'].map((id) => ({ id, label: { en: id } })),
    },
    { id: 'score', type: 'nps', headline: { en: 'Recommend us?' }, required: true },
    { id: 'comment', type: 'openText', headline: { en: 'Anything else?' }, required: false },
  ],
  endings: [{ id: 'thanks', headline: { en: 'Thanks' } }],
};

async function publishedSurvey(sandbox: Sandbox): Promise<BenchContext & { slug: string }> {
  const context = await benchWorkspace(sandbox, 'summary');
  const survey = await draftSurvey(context, 'Bench summary', definition);
  await publishSurvey(context, survey);
  context.data = { surveyId: survey.surveyId, versionId: survey.versionId };
  return { ...context, slug: context.host.split('.')[0] as string };
}

/** Writes `count` finished responses (contract §1 items) 25 per BatchWriteItem, 4 batches at a time. */
async function writeResponses(sandbox: Sandbox, slug: string, surveyId: string, versionId: string, count: number): Promise<void> {
  const now = new Date().toISOString();
  const items = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    return {
      ...surveyResponseEntity.keys.response(slug, surveyId, id),
      entity: 'SurveyResponse',
      workspace: slug,
      id,
      surveyId,
      versionId,
      status: 'finished',
      answers: { plan: ['free', 'pro', 'team'][i % 3], score: i % 11, comment: `Comment ${i}, with a comma` },
      path: ['plan', 'score', 'comment'],
      language: 'en',
      revision: 1,
      createdAt: now,
      updatedAt: now,
      finishedAt: now,
      secondsToFinish: 20 + (i % 300),
    };
  });
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  for (let i = 0; i < batches.length; i += 4) {
    await Promise.all(
      batches.slice(i, i + 4).map(async (batch) => {
        let pending: Record<string, unknown>[] = batch.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const { UnprocessedItems } = await sandbox.store.db.send(
            new BatchWriteCommand({ RequestItems: { [sandbox.store.table]: pending as never } }),
          );
          pending = (UnprocessedItems?.[sandbox.store.table] as Record<string, unknown>[] | undefined) ?? [];
        }
      }),
    );
  }
}

/** Responses the summary counts now (0 while a loaded machine times a read out: the caller polls again). */
async function startedCount(context: BenchContext): Promise<number> {
  const res = await send(context, 'GET', `/surveys/${context.data.surveyId}/summary`);
  const body = (await res.json()) as { summary?: { responses: { started: number } } };
  return body.summary?.responses.started ?? 0;
}

export async function reportSurveyAggregation(sandbox: Sandbox): Promise<void> {
  const count = Number(process.env.BENCH_SUMMARY_RESPONSES ?? 1_000);
  if (count <= 0) return;
  const survey = await publishedSurvey(sandbox);
  const surveyId = survey.data.surveyId as string;
  const versionId = survey.data.versionId as string;
  const started = performance.now();
  await writeResponses(sandbox, survey.slug, surveyId, versionId, count);
  const written = performance.now();
  while ((await startedCount(survey)) < count) await new Promise((resolve) => setTimeout(resolve, 100));
  const counted = performance.now();
  const day = new Date().toISOString().slice(0, 10);
  // The day's buckets of this version: one per aggregator instance that wrote (lib/surveys/summary/aggregator.ts).
  const { Items = [] } = await sandbox.store.db.send(
    new QueryCommand({
      TableName: sandbox.store.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :bucket)',
      ExpressionAttributeValues: {
        ':pk': keys.workspacePk(survey.slug),
        ':bucket': dayBucketEntity.keys.bucket(survey.slug, surveyId, day, versionId).sk,
      },
      ConsistentRead: true,
    }),
  );
  const bucketWrites = Items.reduce((sum, item) => sum + Number(item.lock ?? 0), 0);
  console.log('\n## Survey summary aggregation\n');
  console.log(`| responses | written in (ms) | all counted after (ms) | bucket writes | per 1,000 responses |\n|---:|---:|---:|---:|---:|`);
  console.log(
    `| ${count} | ${Math.round(written - started)} | ${Math.round(counted - started)} | ${bucketWrites} | ${((bucketWrites * 1000) / count).toFixed(1)} |`,
  );
}

export async function reportSurveyExport(sandbox: Sandbox): Promise<void> {
  const count = Number(process.env.BENCH_EXPORT_RESPONSES ?? 2_000);
  if (count <= 0) return;
  const survey = await publishedSurvey(sandbox);
  await writeResponses(sandbox, survey.slug, survey.data.surveyId as string, survey.data.versionId as string, count);
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const res = await send(survey, 'POST', `/surveys/${survey.data.surveyId}/exports`, { format: 'csv', labels: 'en' });
  const location = res.headers.get('location') as string;
  let current: { status: string; rows: number; bytes: number };
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = ((await (await send(survey, 'GET', location.replace('/api/v1', ''))).json()) as { export: typeof current }).export;
  } while (current.status === 'queued' || current.status === 'running');
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log('\n## Survey export (CSV)\n');
  console.log('| responses | status | rows | file MB | time to done (ms) | peak RSS above start (MB) |\n|---:|---|---:|---:|---:|---:|');
  console.log(
    `| ${count} | ${current.status} | ${current.rows} | ${mb(current.bytes)} | ${Math.round(elapsed)} | ${mb(peak - baseline)} |`,
  );
}

/** A survey with BENCH_SUMMARY_READ_RESPONSES (default 300) counted responses: the summary read. */
async function withSummarisedSurvey(sandbox: Sandbox): Promise<BenchContext> {
  const count = Number(process.env.BENCH_SUMMARY_READ_RESPONSES ?? 300);
  const survey = await publishedSurvey(sandbox);
  await writeResponses(sandbox, survey.slug, survey.data.surveyId as string, survey.data.versionId as string, count);
  while ((await startedCount(survey)) < count) await new Promise((resolve) => setTimeout(resolve, 100));
  return survey;
}

export const surveySummaryScenarios: Scenario[] = [
  {
    name: 'GET /surveys/{id}/summary (counted responses)',
    setup: withSummarisedSurvey,
    request: (c) => send(c, 'GET', `/surveys/${c.data.surveyId}/summary`),
  },
];
