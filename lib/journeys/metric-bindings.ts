/**
 * Metric cells bound to survey questions (content `source`): what a save reports about them, and
 * what is kept beside the content for the metrics read. Pure: the surveys' facts come in, loaded by
 * the caller through the surveys area's one lookup (lib/surveys/question-lookup.ts).
 */
import type { QuestionFacts, QuestionKind, SurveyQuestionFacts } from '../surveys/question-lookup.ts';
import type { JourneyContent, MetricMeasure, MetricSource } from './content.ts';

export interface BoundCell {
  cellKey: string;
  source: MetricSource;
}

/** What the metrics read needs of a binding, resolved at save: the answer range decides a rating's top box. */
export interface ResolvedBinding {
  cellKey: string;
  scale?: { min: number; max: number };
}

/** Which question kinds each measure can be computed from. */
const MEASURE_FITS: Record<MetricMeasure, readonly QuestionKind[]> = {
  nps: ['nps'],
  csat: ['csat'],
  ces: ['ces'],
  mean: ['nps', 'rating', 'csat', 'ces', 'number'],
  topBox: ['rating', 'csat'],
};

export function boundCellsOf(content: JourneyContent): BoundCell[] {
  const bound: BoundCell[] = [];
  for (const [cellKey, cell] of Object.entries(content.cells)) {
    if ('source' in cell && cell.source) bound.push({ cellKey, source: cell.source });
  }
  return bound;
}

export type BindingReport = (
  code:
    | 'metric_survey_not_found'
    | 'metric_version_not_found'
    | 'metric_question_not_found'
    | 'metric_measure_mismatch'
    | 'metric_survey_archived'
    | 'metric_question_unpublished'
    | 'metric_value_ignored',
  path: string,
  message: string,
) => void;

type Pointer = (...segments: (string | number)[]) => string;

/** The question a binding is judged by, and whether the survey's published version lacks it. */
function questionOf(
  survey: SurveyQuestionFacts,
  source: MetricSource,
): { question?: QuestionFacts; versionMissing: boolean; unpublished: boolean } {
  const published = survey.publishedVersionId ? survey.versions.get(survey.publishedVersionId) : undefined;
  const unpublished = !published?.questions.has(source.questionId);
  if (source.versionId !== undefined) {
    const pinned = survey.versions.get(source.versionId);
    if (!pinned) return { versionMissing: true, unpublished };
    return { question: pinned.questions.get(source.questionId), versionMissing: false, unpublished };
  }
  const latest = survey.latestVersionId ? survey.versions.get(survey.latestVersionId) : undefined;
  return {
    question: published?.questions.get(source.questionId) ?? latest?.questions.get(source.questionId),
    versionMissing: false,
    unpublished,
  };
}

/** Diagnostics of every bound cell; returns the bindings that resolved, with their answer ranges. */
export function diagnoseBindings(
  content: JourneyContent,
  surveys: ReadonlyMap<string, SurveyQuestionFacts>,
  report: BindingReport,
  pointer: Pointer,
): ResolvedBinding[] {
  const resolved: ResolvedBinding[] = [];
  for (const { cellKey, source } of boundCellsOf(content)) {
    const at = (...rest: string[]) => pointer('cells', cellKey, ...rest);
    const cell = content.cells[cellKey];
    if (cell && 'value' in cell && cell.value !== undefined) {
      report(
        'metric_value_ignored',
        at('value'),
        `Cell "${cellKey}" is bound to a survey, so its value is computed and the typed value is ignored`,
      );
    }
    const survey = surveys.get(source.surveyId);
    if (!survey) {
      report('metric_survey_not_found', at('source', 'surveyId'), `No survey ${source.surveyId} exists in this workspace`);
      continue;
    }
    if (survey.archived)
      report('metric_survey_archived', at('source', 'surveyId'), `Survey ${source.surveyId} is archived: it collects no more responses`);
    const { question, versionMissing, unpublished } = questionOf(survey, source);
    if (versionMissing) {
      report('metric_version_not_found', at('source', 'versionId'), `Survey ${source.surveyId} has no version ${source.versionId}`);
      continue;
    }
    if (!question) {
      report('metric_question_not_found', at('source', 'questionId'), `Survey ${source.surveyId} has no question "${source.questionId}"`);
      continue;
    }
    if (unpublished) {
      report(
        'metric_question_unpublished',
        at('source', 'questionId'),
        `Question "${source.questionId}" is not in the survey's published version`,
      );
    }
    if (!MEASURE_FITS[source.measure].includes(question.kind)) {
      report(
        'metric_measure_mismatch',
        at('source', 'measure'),
        `${source.measure} cannot be computed from a ${question.kind === 'number' ? 'number' : question.kind} question; it fits ${MEASURE_FITS[source.measure].join(', ')}`,
      );
      continue;
    }
    resolved.push(question.scale ? { cellKey, scale: question.scale } : { cellKey });
  }
  return resolved;
}

/**
 * Survey id → the question ids the content binds without pinning a version: what follows the
 * survey's published version, and so what a new survey version can unbind.
 */
export function followedBindingsOf(content: JourneyContent): Map<string, string[]> {
  const bySurvey = new Map<string, Set<string>>();
  for (const { source } of boundCellsOf(content)) {
    if (source.versionId !== undefined) continue;
    const questions = bySurvey.get(source.surveyId) ?? new Set<string>();
    questions.add(source.questionId);
    bySurvey.set(source.surveyId, questions);
  }
  return new Map([...bySurvey].map(([surveyId, questions]) => [surveyId, [...questions].sort()]));
}

/** The bindings that resolve, with their answer ranges: kept on the version for the metrics read. */
export function resolvedBindingsOf(content: JourneyContent, surveys: ReadonlyMap<string, SurveyQuestionFacts>): ResolvedBinding[] {
  return diagnoseBindings(
    content,
    surveys,
    () => undefined,
    () => '',
  );
}

export function bindingsAttribute(bindings: readonly ResolvedBinding[]): string {
  return JSON.stringify(bindings);
}

/** The longest `bindings` attribute `content` can get, before the surveys are read: every bound cell resolved, with the widest range. */
export function largestBindingsAttribute(content: JourneyContent): string {
  const widest = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
  return bindingsAttribute(boundCellsOf(content).map(({ cellKey }) => ({ cellKey, scale: widest })));
}

export function bindingsFromAttribute(value: unknown): ResolvedBinding[] {
  return typeof value === 'string' ? (JSON.parse(value) as ResolvedBinding[]) : [];
}
