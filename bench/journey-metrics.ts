/**
 * Journey metrics and the map picture: the metrics read over 90 days of day buckets (written as the
 * summary's aggregator writes them) for five bound questions, and the map of a 40-stage × 12-row
 * journey drawn as SVG. `BENCH_METRIC_DAYS` sizes the buckets (default 90).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SurveyDefinition } from '../lib/surveys/engine/definition.ts';
import { catalogOf } from '../lib/surveys/summary/catalog.ts';
import { addCounts, type Counts, contributionOf } from '../lib/surveys/summary/counts.ts';
import { dayBucketEntity } from '../lib/surveys/summary/entities.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { largeJourneyContent } from '../test/support/journey-map-sample.ts';
import { benchWorkspace, type BenchContext as Context, type Scenario, send } from './harness.ts';

const DAYS = Number(process.env.BENCH_METRIC_DAYS ?? 90);
const DAY_MS = 86_400_000;

const t = (en: string) => ({ en });
const definition = {
  languages: ['en'],
  questions: [
    { id: 'score', type: 'nps', headline: t('Recommend us?'), required: false },
    { id: 'stars', type: 'rating', scale: 5, style: 'star', headline: t('Rate it'), required: false },
    { id: 'sat', type: 'csat', headline: t('Satisfied?'), required: false },
    { id: 'effort', type: 'ces', headline: t('Easy?'), required: false },
    { id: 'age', type: 'openText', inputType: 'number', headline: t('Age?'), required: false },
  ],
  endings: [{ id: 'thanks', headline: t('Thanks') }],
};

async function json<T = unknown>(res: Promise<Response>, what: string): Promise<T> {
  const response = await res;
  if (response.status !== 200) throw new Error(`bench ${what} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function journeyWith(context: Context, content: unknown): Promise<void> {
  const created = await json<{ journeyId: string; version: { id: string } }>(
    send(context, 'POST', '/journeys', { titleEn: 'Bench', titleAr: 'قياس' }),
    'journey',
  );
  context.data.journeyId = created.journeyId;
  context.data.versionId = created.version.id;
  await json(
    send(context, 'PUT', `/journeys/${created.journeyId}/versions/${created.version.id}/content`, { content }, { 'If-Match': '"1"' }),
    'save',
  );
}

/** A published survey with `DAYS` days of buckets, 20 answers a day, and a journey binding five of its questions. */
async function withMetrics(sandbox: Sandbox): Promise<Context> {
  const context = await benchWorkspace(sandbox, 'metrics');
  const created = await json<{ survey: { id: string }; version: { id: string; revision: number } }>(
    send(context, 'POST', '/surveys', { name: 'Bench survey' }),
    'survey',
  );
  const surveyId = created.survey.id as string;
  const versionId = created.version.id as string;
  await json(
    send(context, 'PUT', `/surveys/${surveyId}/versions/${versionId}`, { definition }, { 'If-Match': `"${created.version.revision}"` }),
    'definition',
  );
  await json(send(context, 'POST', `/surveys/${surveyId}/publish`, { versionId }), 'publish');
  const catalog = catalogOf(definition as SurveyDefinition);
  const slug = new URL(`http://${context.host}`).hostname.split('.')[0] ?? '';
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(Date.now() - d * DAY_MS).toISOString().slice(0, 10);
    const counts: Counts = {};
    for (let i = 0; i < 20; i++) {
      const answers = { score: (d + i) % 11, stars: 1 + ((d + i) % 5), sat: 1 + (i % 5), effort: 1 + (i % 7), age: 20 + i };
      addCounts(counts, contributionOf({ status: 'finished', answers, path: Object.keys(answers) }, catalog));
    }
    await sandbox.store.db.send(
      new PutCommand({
        TableName: sandbox.store.table,
        Item: {
          ...dayBucketEntity.keys.bucket(slug, surveyId, day, versionId),
          entity: 'SurveyDayBucket',
          surveyId,
          day,
          versionId,
          catalog,
          counts,
        },
      }),
    );
  }
  const source = (questionId: string, measure: string) => ({ source: { surveyId, questionId, measure }, target: 50 });
  await journeyWith(context, {
    schema: 1,
    stages: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, titleEn: id, titleAr: id, microJourneyPairs: [] })),
    rows: [{ id: 'm', type: 'metric', titleEn: 'Metrics', titleAr: 'المقاييس' }],
    cells: {
      'm:a': source('score', 'nps'),
      'm:b': source('stars', 'topBox'),
      'm:c': source('sat', 'csat'),
      'm:d': source('effort', 'ces'),
      'm:e': source('age', 'mean'),
    },
  });
  return context;
}

const versionPath = (c: Context) => `/journeys/${c.data.journeyId}/versions/${c.data.versionId}`;

export const journeyMetricScenarios: Scenario[] = [
  {
    name: `GET journey metrics (5 bound questions, ${DAYS} days of buckets, weekly)`,
    setup: withMetrics,
    request: (c) => send(c, 'GET', `${versionPath(c)}/metrics`),
  },
  {
    name: 'GET journey map.svg (40 stages × 12 rows)',
    setup: async (sandbox) => {
      const context = await benchWorkspace(sandbox, 'map');
      await journeyWith(context, largeJourneyContent(40, 12));
      return context;
    },
    request: (c) => send(c, 'GET', `${versionPath(c)}/map.svg`),
  },
];
