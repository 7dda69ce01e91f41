/**
 * Walks a definition for one set of answers, as a respondent would go through it: a question is
 * shown when its `visibleIf` holds and its option filter leaves it options; after it, the first
 * route whose condition holds jumps forward, otherwise the next question follows; past the last
 * question the first ending is reached.
 *
 * Answers are read as they are given: one the respondent could not have given (to a question not
 * shown, an option not offered, a value of the wrong type) is reported and counts as no answer.
 * A required question shown and left unanswered stops the walk there (the respondent cannot go
 * on), so `ending` is null; answers to questions after that point may still be shown once it is
 * answered, so they are not "never shown", but a value no respondent could give (wrong type, out
 * of range, not an option of the question) is reported all the same.
 */

import { characterCount } from '../../platform/schemas.ts';
import { type AnswerValue, evaluate } from './conditions.ts';
import type { Language, Question, ShownText, SurveyDefinition } from './definition.ts';
import { type CompiledQuestion, compileModel, type SurveyModel } from './model.ts';
import { dayNumber } from './operators.ts';

type SimulationProblemCode =
  | 'unknown_question'
  | 'answer_not_shown'
  | 'option_not_offered'
  | 'invalid_answer'
  | 'required_unanswered'
  | 'missing_translation';

interface SimulationProblem {
  questionId: string;
  code: SimulationProblemCode;
  message: string;
}

export interface SimulationRun {
  path: string[];
  skipped: string[];
  options: Record<string, string[]>;
  ending: string | null;
  problems: SimulationProblem[];
}

export function simulate(definition: SurveyDefinition, answers: Record<string, unknown>, language?: Language): SimulationRun {
  const { answered: _answered, stopped: _stopped, ...run } = walkAnswers(compileModel(definition), answers, language);
  return run;
}

/** A run plus what response validation also needs: which shown questions hold an accepted answer, and whether the walk stopped. */
export interface Walk extends SimulationRun {
  answered: Set<string>;
  stopped: boolean;
}

export function walkAnswers(model: SurveyModel, answers: Record<string, unknown>, language?: Language): Walk {
  const given = new Map<number, AnswerValue>();
  const answerOf = (index: number) => given.get(index);
  const run: SimulationRun = { path: [], skipped: [], options: {}, ending: null, problems: [] };
  const shown = new Set<number>();
  const problem = (questionId: string, code: SimulationProblemCode, message: string) => run.problems.push({ questionId, code, message });

  for (const questionId of Object.keys(answers)) {
    if (!model.indexById.has(questionId)) problem(questionId, 'unknown_question', `no question has id ${questionId}`);
  }

  let index = 0;
  let stopped = false;
  walk: while (index < model.questions.length) {
    const compiled = model.questions[index] as CompiledQuestion;
    const question = compiled.question;
    const offered = offeredOptions(compiled, given);
    if (!evaluate(compiled.visibleIf, answerOf) || offered?.length === 0) {
      run.skipped.push(question.id);
      index++;
      continue;
    }
    shown.add(index);
    run.path.push(question.id);
    if (offered) run.options[question.id] = offered;
    if (language) reportMissingTranslation(question, language, problem);

    const raw = answers[question.id];
    const read = raw === undefined || raw === null ? { value: undefined } : readAnswer(question, raw, offered);
    if ('problem' in read) problem(question.id, read.problem.code, read.problem.message);
    else if (read.value !== undefined) given.set(index, read.value);
    if (!given.has(index) && question.required && question.type !== 'statement') {
      problem(question.id, 'required_unanswered', `${question.id} is required; the respondent cannot go on without an answer`);
      stopped = true;
      break;
    }

    for (const route of compiled.routes) {
      if (!evaluate(route.when, answerOf)) continue;
      if ('ending' in route.target) {
        markSkipped(model, run, index + 1, model.questions.length);
        run.ending = route.target.ending;
        break walk;
      }
      markSkipped(model, run, index + 1, route.target.question);
      index = route.target.question;
      continue walk;
    }
    index++;
  }
  if (!stopped && run.ending === null) run.ending = model.endingIds[0] ?? null;

  for (const [questionId, raw] of Object.entries(answers)) {
    const at = model.indexById.get(questionId);
    if (at === undefined || shown.has(at)) continue;
    const compiled = model.questions[at] as CompiledQuestion;
    if (!stopped || run.skipped.includes(questionId)) {
      problem(questionId, 'answer_not_shown', `${questionId} is never shown on this path, so its answer is ignored`);
    } else if (raw !== undefined && raw !== null) {
      // Beyond the stop: which options the filter leaves is not known yet, but the question's own options bound them.
      const read = readAnswer(compiled.question, raw, compiled.optionIds);
      if ('problem' in read) problem(questionId, read.problem.code, read.problem.message);
    }
  }
  const answered = new Set([...given.keys()].map((index) => (model.questions[index] as CompiledQuestion).question.id));
  return { ...run, answered, stopped };
}

function markSkipped(model: SurveyModel, run: SimulationRun, from: number, to: number): void {
  for (let i = from; i < to; i++) run.skipped.push((model.questions[i] as CompiledQuestion).question.id);
}

/** The options a choice or ranking question offers after its option filter; undefined for other types. */
function offeredOptions(compiled: CompiledQuestion, given: Map<number, AnswerValue>): string[] | undefined {
  const type = compiled.question.type;
  if (type !== 'singleChoice' && type !== 'multipleChoice' && type !== 'ranking') return undefined;
  if (!compiled.filter) return [...compiled.optionIds];
  const answer = given.get(compiled.filter.source);
  const chosen = new Set(answer === undefined ? [] : Array.isArray(answer) ? (answer as string[]) : [String(answer)]);
  const keep = compiled.filter.mode === 'selected';
  return compiled.optionIds.filter((id) => chosen.has(id) === keep);
}

type Read = { value: AnswerValue | undefined } | { problem: { code: 'invalid_answer' | 'option_not_offered'; message: string } };

const invalid = (message: string): Read => ({ problem: { code: 'invalid_answer', message } });
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{4,30}$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

function idList(raw: unknown, offered: readonly string[], questionId: string): Read | string[] {
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) return invalid(`${questionId} takes an array of option ids`);
  if (new Set(raw).size !== raw.length) return invalid(`${questionId}: an option is given twice`);
  const notOffered = raw.filter((item) => !offered.includes(item));
  if (notOffered.length > 0) {
    return { problem: { code: 'option_not_offered', message: `${questionId} does not offer ${notOffered.join(', ')} here` } };
  }
  return raw as string[];
}

/** An answer in the form conditions compare, or what is wrong with it. */
function readAnswer(question: Question, raw: unknown, offered: readonly string[] | undefined): Read {
  const id = question.id;
  switch (question.type) {
    case 'openText': {
      if (typeof raw !== 'string') return invalid(`${id} takes a string`);
      if (raw.trim().length === 0) return { value: undefined };
      if (question.maxLength !== undefined && characterCount(raw) > question.maxLength) {
        return invalid(`${id} takes at most ${question.maxLength} characters`);
      }
      switch (question.inputType ?? 'text') {
        case 'number':
          return NUMBER.test(raw.trim()) ? { value: Number(raw.trim()) } : invalid(`${id} takes a number`);
        case 'email':
          return EMAIL.test(raw.trim()) ? { value: raw } : invalid(`${id} takes an e-mail address`);
        case 'url':
          return URL.canParse(raw.trim()) ? { value: raw } : invalid(`${id} takes a URL`);
        case 'phone':
          return PHONE.test(raw.trim()) ? { value: raw } : invalid(`${id} takes a phone number`);
        default:
          return { value: raw };
      }
    }
    case 'singleChoice':
      if (typeof raw !== 'string') return invalid(`${id} takes one option id`);
      if (!(offered ?? []).includes(raw)) return { problem: { code: 'option_not_offered', message: `${id} does not offer ${raw} here` } };
      return { value: raw };
    case 'multipleChoice':
    case 'ranking': {
      const list = idList(raw, offered ?? [], id);
      if (!Array.isArray(list)) return list;
      return { value: list.length === 0 ? undefined : list };
    }
    case 'nps':
    case 'rating':
    case 'csat':
    case 'ces': {
      const [min, max] =
        question.type === 'nps' ? [0, 10] : question.type === 'csat' ? [1, 5] : question.type === 'ces' ? [1, 7] : [1, question.scale];
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max)
        return invalid(`${id} takes a whole number from ${min} to ${max}`);
      return { value: raw };
    }
    case 'date': {
      const day = typeof raw === 'string' ? dayNumber(raw) : undefined;
      return day === undefined ? invalid(`${id} takes a date YYYY-MM-DD`) : { value: day };
    }
    case 'matrix': {
      if (typeof raw !== 'object' || Array.isArray(raw)) return invalid(`${id} takes an object of row id to column id`);
      const rows = new Set(question.rows.map((row) => row.id));
      const columns = new Set(question.columns.map((column) => column.id));
      const entries = Object.entries(raw as Record<string, unknown>);
      for (const [row, column] of entries) {
        if (!rows.has(row)) return invalid(`${id} has no row ${row}`);
        if (typeof column !== 'string' || !columns.has(column)) return invalid(`${id}: row ${row} takes one of its column ids`);
      }
      return { value: entries.length === 0 ? undefined : true };
    }
    case 'consent':
      if (typeof raw !== 'boolean') return invalid(`${id} takes true or false`);
      // Declining is not consenting: a required consent needs `true`.
      return { value: raw ? true : undefined };
    case 'statement':
      return invalid(`${id} is a statement and takes no answer`);
  }
}

function shownTextsOf(question: Question): (ShownText | undefined)[] {
  const texts: (ShownText | undefined)[] = [question.headline, question.description];
  if ('options' in question) for (const option of question.options) texts.push(option.label);
  if (question.type === 'matrix') for (const item of [...question.rows, ...question.columns]) texts.push(item.label);
  return texts;
}

function reportMissingTranslation(
  question: Question,
  language: Language,
  problem: (id: string, code: SimulationProblemCode, message: string) => void,
): void {
  if (shownTextsOf(question).some((text) => text !== undefined && !text[language])) {
    problem(question.id, 'missing_translation', `${question.id} has text with no ${language} version`);
  }
}
