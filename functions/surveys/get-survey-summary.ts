/**
 * GET /surveys/{id}/summary: the survey (for its versions and the published one) and the day buckets
 * of the range, read together (two calls, one round trip), then summed in memory.
 */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { getSurvey, surveyNotFound, versionNotFound } from '../../lib/surveys/store.ts';
import { ALL_DAYS, readDayBuckets } from '../../lib/surveys/summary/buckets.ts';
import { getSurveySummary as route } from '../../lib/surveys/summary/routes.ts';
import { summaryOf } from '../../lib/surveys/summary/summary.ts';

export async function getSurveySummary({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const workspace = auth.workspace.slug;
  const [found, buckets] = await Promise.all([
    getSurvey(workspace, params.id),
    readDayBuckets(workspace, params.id, query.from ?? ALL_DAYS.from, query.to ?? ALL_DAYS.to),
  ]);
  if (!found) throw surveyNotFound();
  const versionId = query.versionId ?? found.survey.publishedVersionId;
  if (versionId && versionId !== 'all' && !found.versions.some((version) => version.id === versionId)) throw versionNotFound();
  const summary = summaryOf({ surveyId: params.id, versionId, from: query.from ?? null, to: query.to ?? null, buckets });
  return { body: { ok: true, summary } };
}

export const handler = apiHandler(route).handler(getSurveySummary);
