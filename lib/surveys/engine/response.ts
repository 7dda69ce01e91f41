/**
 * Checks a respondent's answers by replaying the survey, with the same walk `simulate` runs
 * (simulate.ts): a response is valid exactly when a respondent could have produced it. What the
 * walk reports becomes an issue at `/answers/<questionId>`; a required question left unanswered is
 * an error only once the response says it is finished (a partial response may stop there).
 */
import type { SurveyDefinition } from './definition.ts';
import { compileModel, pointer } from './model.ts';
import { walkAnswers } from './simulate.ts';

/** What can be wrong with answers: the `code` of each issue of a 400 `invalid_answers` (its route's errorMembers). */
export const ANSWER_ISSUE_CODES = [
  'unknown_question',
  'answer_not_shown',
  'option_not_offered',
  'invalid_answer',
  'required_unanswered',
  'no_answers',
  'no_ending',
] as const;
type AnswerIssueCode = (typeof ANSWER_ISSUE_CODES)[number];

interface AnswerIssue {
  severity: 'error';
  code: AnswerIssueCode;
  message: string;
  /** JSON Pointer into the request body. */
  path: string;
}

export interface ReplayedResponse {
  issues: AnswerIssue[];
  /** The questions shown, in order: for a partial response, up to the one the respondent is on. */
  path: string[];
  /** The ending reached; only a finished response reaches one. */
  ending: string | null;
}

const answerPath = (questionId: string) => pointer('answers', questionId);

export function replayResponse(definition: SurveyDefinition, answers: Record<string, unknown>, finished: boolean): ReplayedResponse {
  const run = walkAnswers(compileModel(definition), answers);
  const issues: AnswerIssue[] = [];
  for (const problem of run.problems) {
    if (problem.code === 'missing_translation') continue;
    if (problem.code === 'required_unanswered' && !finished) continue;
    issues.push({ severity: 'error', code: problem.code, message: problem.message, path: answerPath(problem.questionId) });
  }
  if (finished && run.answered.size === 0) {
    issues.push({ severity: 'error', code: 'no_answers', message: 'A finished response answers at least one question', path: '/answers' });
  }
  if (finished && !run.stopped && run.ending === null) {
    issues.push({ severity: 'error', code: 'no_ending', message: 'These answers reach no ending of the survey', path: '/answers' });
  }
  if (finished) return { issues, path: run.path, ending: run.ending };
  return { issues, path: shownSoFar(run.path, run.answered), ending: null };
}

/**
 * A partial respondent has seen the questions up to the last one answered, and the one after it,
 * where they are now (or left): drop-off counts that one, and nothing they were never shown.
 */
function shownSoFar(path: readonly string[], answered: ReadonlySet<string>): string[] {
  let last = -1;
  path.forEach((questionId, index) => {
    if (answered.has(questionId)) last = index;
  });
  return path.slice(0, last + 2);
}
