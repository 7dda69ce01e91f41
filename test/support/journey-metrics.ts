/** Builders for journey metrics tests: a survey with numeric questions, published over HTTP, and content binding it. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { SurveyDefinition } from '../../lib/surveys/engine/definition.ts';
import { catalogOf } from '../../lib/surveys/summary/catalog.ts';
import { addCounts, type Counts, contributionOf } from '../../lib/surveys/summary/counts.ts';
import { dayBucketEntity } from '../../lib/surveys/summary/entities.ts';
import { adminStore, useSandboxEnvironment } from './fixtures.ts';
import type { Api } from './journeys.ts';
import { surveyWithDefinition } from './surveys.ts';

const t = (en: string) => ({ en });

/** nps `score`, rating `stars` (1–5), csat `sat`, ces `effort`, number `age`, text `why`. */
export function scoredDefinition(extra: unknown[] = []) {
  return {
    languages: ['en'],
    questions: [
      { id: 'score', type: 'nps', headline: t('How likely are you to recommend us?'), required: false },
      { id: 'stars', type: 'rating', scale: 5, style: 'star', headline: t('Rate the visit'), required: false },
      { id: 'sat', type: 'csat', headline: t('How satisfied are you?'), required: false },
      { id: 'effort', type: 'ces', headline: t('How easy was it?'), required: false },
      { id: 'age', type: 'openText', inputType: 'number', headline: t('Your age?'), required: false },
      { id: 'why', type: 'openText', headline: t('Why?'), required: false },
      ...extra,
    ],
    endings: [{ id: 'thanks', headline: t('Thank you!') }],
  };
}

/** A survey with `scoredDefinition()` published as its version 1. */
export async function publishedScoredSurvey(api: Api): Promise<{ surveyId: string; versionId: string }> {
  const made = await surveyWithDefinition(api, scoredDefinition());
  const res = await api.post(`/surveys/${made.surveyId}/publish`, { body: { versionId: made.versionId } });
  expect(res.status, res.text).toBe(200);
  return { surveyId: made.surveyId, versionId: made.versionId };
}

/** Journey content with one metric row whose cells (by stage id) are given. */
export function metricContent(cells: Record<string, unknown>) {
  const stageIds = Object.keys(cells).length > 0 ? Object.keys(cells) : ['s1'];
  return {
    schema: 1,
    stages: stageIds.map((id) => ({ id, titleEn: `Stage ${id}`, titleAr: `مرحلة ${id}`, microJourneyPairs: [] })),
    rows: [{ id: 'm', type: 'metric', titleEn: 'NPS', titleAr: 'صافي نقاط الترويج' }],
    cells: Object.fromEntries(Object.entries(cells).map(([stageId, cell]) => [`m:${stageId}`, cell])),
  };
}

/**
 * Day buckets written the way the summary's aggregator writes them (contract §2, lib/surveys/summary/):
 * each answer set counted by `contributionOf` against the version's `catalogOf`, summed per UTC day,
 * one item per survey, day and version. Stands in for responses until the responses API exists.
 */
export async function writeDayBuckets(
  slug: string,
  survey: { surveyId: string; versionId: string },
  definition: SurveyDefinition,
  answersByDay: Record<string, Record<string, unknown>[]>,
): Promise<void> {
  // buckets.ts reads the table's name when loaded, so it is loaded once the sandbox's is set.
  useSandboxEnvironment();
  const { DAY_BUCKET_ENTITY } = await import('../../lib/surveys/summary/store/buckets.ts');
  const catalog = catalogOf(definition);
  for (const [day, answerSets] of Object.entries(answersByDay)) {
    const counts: Counts = {};
    for (const answers of answerSets) {
      addCounts(counts, contributionOf({ status: 'finished', answers, path: Object.keys(answers), secondsToFinish: 30 }, catalog), 1);
    }
    await adminStore().db.send(
      new PutCommand({
        TableName: adminStore().table,
        Item: {
          ...dayBucketEntity.keys.bucket(slug, survey.surveyId, day, survey.versionId),
          entity: DAY_BUCKET_ENTITY,
          surveyId: survey.surveyId,
          day,
          versionId: survey.versionId,
          catalog,
          counts,
        },
      }),
    );
  }
}
