/**
 * A survey's summary: the survey (for its versions and the published one) and the day buckets of the
 * range, read together (two calls, one round trip), then summed in memory (summary/summary.ts).
 */
import { surveyNotFound, versionNotFound } from '../errors.ts';
import { findSurvey } from '../store/surveys.ts';
import { ALL_DAYS, readDayBuckets } from '../summary/store/buckets.ts';
import { type SurveySummary, summaryOf } from '../summary/summary.ts';

export async function getSurveySummary(
  workspace: string,
  surveyId: string,
  query: { versionId?: string | undefined; from?: string | undefined; to?: string | undefined },
): Promise<SurveySummary> {
  const [found, buckets] = await Promise.all([
    findSurvey(workspace, surveyId),
    readDayBuckets(workspace, surveyId, query.from ?? ALL_DAYS.from, query.to ?? ALL_DAYS.to),
  ]);
  if (!found) throw surveyNotFound();
  const versionId = query.versionId ?? found.survey.publishedVersionId;
  if (versionId && versionId !== 'all' && !found.versions.some((version) => version.id === versionId)) throw versionNotFound();
  return summaryOf({ surveyId, versionId, from: query.from ?? null, to: query.to ?? null, buckets });
}
