/**
 * The one function other areas (journeys' metrics, contract §2) may call to read survey scores: the
 * per-day distribution of numeric answers to one question, from the day buckets (one Query), never
 * the responses.
 */

import type { CatalogQuestion } from './catalog.ts';
import { type DayBucket, readDayBuckets } from './store/buckets.ts';

/** @public Contract §2: the journeys area's metrics name their measure with it. */
export type { MetricMeasure } from './measures.ts';

export interface DailyScores {
  /** 'YYYY-MM-DD' (UTC), only days with at least one answer. */
  day: string;
  /** Numeric answer value (as a string, e.g. '9') → how many answered it. */
  counts: Record<string, number>;
}

const sameScale = (a: CatalogQuestion, b: CatalogQuestion) =>
  a.type === b.type && a.numeric === b.numeric && a.scale?.min === b.scale?.min && a.scale?.max === b.scale?.max;

/**
 * The question as the versions read agree on it: that version's when `versionId` is given, else the
 * newest bucket's (latest day, then latest version id: UUIDv7, so the latest created).
 */
function referenceQuestion(buckets: readonly DayBucket[], questionId: string): CatalogQuestion | undefined {
  let reference: { bucket: DayBucket; question: CatalogQuestion } | undefined;
  for (const bucket of buckets) {
    const question = bucket.catalog[questionId];
    if (!question?.numeric) continue;
    const newer =
      !reference ||
      bucket.day > reference.bucket.day ||
      (bucket.day === reference.bucket.day && bucket.versionId > reference.bucket.versionId);
    if (newer) reference = { bucket, question };
  }
  return reference?.question;
}

/** Pure part of readDailyScores, over buckets already read. */
export function dailyScoresOf(buckets: readonly DayBucket[], questionId: string, versionId?: string): DailyScores[] {
  const chosen = versionId ? buckets.filter((bucket) => bucket.versionId === versionId) : buckets;
  const reference = referenceQuestion(chosen, questionId);
  if (!reference) return [];
  const prefix = `q|${questionId}|v|`;
  const byDay = new Map<string, Record<string, number>>();
  for (const bucket of chosen) {
    const question = bucket.catalog[questionId];
    // Versions where the question changed its type or scale are left out: their numbers mean something else.
    if (!question || !sameScale(question, reference)) continue;
    for (const [name, count] of Object.entries(bucket.counts)) {
      if (!name.startsWith(prefix) || count <= 0) continue;
      const value = name.slice(prefix.length);
      let counts = byDay.get(bucket.day);
      if (!counts) {
        counts = {};
        byDay.set(bucket.day, counts);
      }
      counts[value] = (counts[value] ?? 0) + count;
    }
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, counts]) => ({ day, counts }));
}

/**
 * The per-day distribution of numeric answers to one question (nps, rating, csat, ces, and openText
 * with inputType number), from the day buckets: one Query per call, never the responses.
 * versionId absent = every version of the survey where the question kept its type and scale.
 */
export async function readDailyScores(
  workspace: string,
  query: { surveyId: string; questionId: string; versionId?: string; from: string; to: string },
): Promise<DailyScores[]> {
  const buckets = await readDayBuckets(workspace, query.surveyId, query.from, query.to);
  return dailyScoresOf(buckets, query.questionId, query.versionId);
}
