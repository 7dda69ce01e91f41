/**
 * The summary of a survey over a range of days, computed from its day buckets alone (pure): counts
 * add up across days, and with `versionId=all` across versions, joining a question by its id where
 * its type (and scale) did not change; a question whose type changed is listed once per type.
 */

import type { CatalogQuestion, QuestionType } from './catalog.ts';
import { addCounts, type Counts } from './counts.ts';
import { percentileOf } from './histogram.ts';
import { measureOf, medianOf, npsScore } from './measures.ts';
import type { DayBucket } from './store/buckets.ts';

interface QuestionSummary {
  questionId: string;
  type: QuestionType;
  shown: number;
  answered: number;
  droppedOff: number;
  options?: { optionId: string; count: number }[];
  scores?: { distribution: { value: number; count: number }[]; mean: number | null; median: number | null };
  nps?: { promoters: number; passives: number; detractors: number; score: number | null; marginOfError95: number | null };
  csat?: { satisfied: number; total: number; percent: number | null; marginOfError95: number | null };
  ces?: { mean: number | null; marginOfError95: number | null };
}

export interface SurveySummary {
  surveyId: string;
  versionId: string | null;
  from: string | null;
  to: string | null;
  responses: {
    started: number;
    finished: number;
    completionRate: number | null;
    secondsToFinish: { p50: number | null; p90: number | null };
  };
  questions: QuestionSummary[];
}

interface Group {
  questionId: string;
  reference: CatalogQuestion;
  /** The newest bucket that named it (its position orders the list). */
  newest: { day: string; versionId: string };
  counts: Counts;
}

const joinKey = (questionId: string, question: CatalogQuestion) => `${questionId}|${question.type}|${question.scale?.max ?? ''}`;
const isNewer = (bucket: DayBucket, than: { day: string; versionId: string }) =>
  bucket.versionId > than.versionId || (bucket.versionId === than.versionId && bucket.day > than.day);

/** The counters of one question (`q|<id>|…` without the prefix). */
function questionCounts(counts: Counts, questionId: string): Counts {
  const prefix = `q|${questionId}|`;
  const own: Counts = {};
  for (const [name, count] of Object.entries(counts)) if (name.startsWith(prefix)) own[name.slice(prefix.length)] = count;
  return own;
}

function withPrefix(counts: Counts, prefix: string): Counts {
  const own: Counts = {};
  for (const [name, count] of Object.entries(counts)) if (name.startsWith(prefix)) own[name.slice(prefix.length)] = count;
  return own;
}

function questionSummary(group: Group): QuestionSummary {
  const { counts, reference } = group;
  const summary: QuestionSummary = {
    questionId: group.questionId,
    type: reference.type,
    shown: counts.shown ?? 0,
    answered: counts.answered ?? 0,
    droppedOff: counts.dropped ?? 0,
  };
  if (reference.options) {
    const options = withPrefix(counts, 'o|');
    const ids = [
      ...reference.options,
      ...Object.keys(options)
        .filter((id) => !reference.options?.includes(id))
        .sort(),
    ];
    summary.options = ids.map((optionId) => ({ optionId, count: options[optionId] ?? 0 }));
  }
  if (!reference.numeric) return summary;
  const values = withPrefix(counts, 'v|');
  summary.scores = {
    distribution: Object.entries(values)
      .map(([value, count]) => ({ value: Number(value), count }))
      .sort((a, b) => a.value - b.value),
    mean: measureOf('mean', values).value,
    median: medianOf(values),
  };
  if (reference.type === 'nps') {
    const tally = { promoters: 0, passives: 0, detractors: 0 };
    for (const [value, count] of Object.entries(values)) {
      const score = npsScore(Number(value));
      if (score === 1) tally.promoters += count;
      else if (score === 0) tally.passives += count;
      else tally.detractors += count;
    }
    const nps = measureOf('nps', values);
    summary.nps = { ...tally, score: nps.value, marginOfError95: nps.marginOfError95 };
  }
  if (reference.type === 'csat') {
    const csat = measureOf('csat', values);
    const satisfied = Object.entries(values).reduce((total, [value, count]) => total + (Number(value) >= 4 ? count : 0), 0);
    summary.csat = { satisfied, total: csat.n, percent: csat.value, marginOfError95: csat.marginOfError95 };
  }
  if (reference.type === 'ces') {
    const ces = measureOf('ces', values);
    summary.ces = { mean: ces.value, marginOfError95: ces.marginOfError95 };
  }
  return summary;
}

export function summaryOf(input: {
  surveyId: string;
  /** A version id, `all`, or null when the survey has no published version (nothing to count). */
  versionId: string | null;
  from: string | null;
  to: string | null;
  buckets: readonly DayBucket[];
}): SurveySummary {
  const buckets =
    input.versionId === null
      ? []
      : input.versionId === 'all'
        ? input.buckets
        : input.buckets.filter((b) => b.versionId === input.versionId);
  const totals: Counts = {};
  const groups = new Map<string, Group>();
  for (const bucket of buckets) {
    addCounts(totals, bucket.counts);
    for (const [questionId, question] of Object.entries(bucket.catalog)) {
      const key = joinKey(questionId, question);
      let group = groups.get(key);
      if (!group) {
        group = { questionId, reference: question, newest: bucket, counts: {} };
        groups.set(key, group);
      } else if (isNewer(bucket, group.newest)) {
        group.reference = question;
        group.newest = bucket;
      }
      addCounts(group.counts, questionCounts(bucket.counts, questionId));
    }
  }
  const started = totals['r|started'] ?? 0;
  const finished = totals['r|finished'] ?? 0;
  const histogram = withPrefix(totals, 'r|s|');
  const ordered = [...groups.values()].sort(
    (a, b) =>
      b.newest.versionId.localeCompare(a.newest.versionId) ||
      a.reference.position - b.reference.position ||
      a.questionId.localeCompare(b.questionId),
  );
  return {
    surveyId: input.surveyId,
    versionId: input.versionId,
    from: input.from,
    to: input.to,
    responses: {
      started,
      finished,
      completionRate: started === 0 ? null : Math.round((finished / started) * 10_000) / 10_000,
      secondsToFinish: { p50: percentileOf(histogram, 0.5), p90: percentileOf(histogram, 0.9) },
    },
    questions: ordered.map(questionSummary),
  };
}
