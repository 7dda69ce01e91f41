/**
 * A definition compiled once for the engine: questions by position (the first of a repeated id
 * wins; validation reports the repeat), each with its answer fit, its visibility, routes and
 * option filter resolved to positions. Whatever validation rejects compiles to something inert (a
 * condition that is false, a route or filter that does nothing), so simulation and reachability
 * run on any definition, and agree with each other, even before the author fixes it.
 */
import { ALWAYS, type Compiled, compareLeaf, presenceLeaf } from './conditions.ts';
import type { Condition, ConditionValue, Operator, Question, QuestionCondition, SurveyDefinition } from './definition.ts';
import { checkValue, type Fit, operatorFits } from './operators.ts';

type IssueCode =
  | 'duplicate_id'
  | 'unknown_question'
  | 'unknown_attribute'
  | 'unknown_option'
  | 'unknown_target'
  | 'reference_not_earlier'
  | 'operator_type_mismatch'
  | 'invalid_value'
  | 'value_out_of_range'
  | 'skipped_on_required'
  | 'backward_jump'
  | 'invalid_option_filter'
  | 'missing_translation'
  | 'no_questions'
  | 'unreachable_question'
  | 'unreachable_ending'
  | 'condition_never_true'
  | 'option_filter_may_empty'
  | 'required_sometimes_hidden';

export interface Issue {
  severity: 'error' | 'warning';
  code: IssueCode;
  message: string;
  /** JSON Pointer into the definition. */
  path: string;
}
export type Report = (issue: Issue) => void;

type RouteTarget = { question: number } | { ending: string };
interface CompiledRoute {
  when: Compiled;
  target: RouteTarget;
}
interface CompiledFilter {
  source: number;
  mode: 'selected' | 'unselected';
}
export interface CompiledQuestion {
  /** Position in `definition.questions` (paths point there). */
  position: number;
  question: Question;
  /** Option ids without repeats, for choice and ranking questions. */
  optionIds: readonly string[];
  visibleIf: Compiled;
  /** Routes whose target is valid, in order. */
  routes: CompiledRoute[];
  /** Each route's condition by its position in `question.routes` (validation points there). */
  routeConditions: Compiled[];
  filter: CompiledFilter | undefined;
}
export interface SurveyModel {
  questions: CompiledQuestion[];
  /** Fit of each question by model index (the subject of condition leaves). */
  fits: Fit[];
  indexById: Map<string, number>;
  endingIds: string[];
  /** Questions some condition or option filter reads: only their answers matter to reasoning. */
  referenced: Set<number>;
}

export function pointer(...segments: (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    const text = String(segment);
    // Ids and field names never hold `~` or `/`; escape (RFC 6901) only when one does.
    path += `/${text.includes('~') || text.includes('/') ? text.replaceAll('~', '~0').replaceAll('/', '~1') : text}`;
  }
  return path;
}

function fitOf(question: Question): Fit {
  switch (question.type) {
    case 'openText':
      return question.inputType === 'number' ? { kind: 'number' } : { kind: 'text' };
    case 'singleChoice':
      return { kind: 'single', options: uniqueIds(question.options) };
    case 'multipleChoice':
      return { kind: 'multi', options: uniqueIds(question.options) };
    case 'nps':
      return { kind: 'scale', min: 0, max: 10 };
    case 'rating':
      return { kind: 'scale', min: 1, max: question.scale };
    case 'csat':
      return { kind: 'scale', min: 1, max: 5 };
    case 'ces':
      return { kind: 'scale', min: 1, max: 7 };
    case 'date':
      return { kind: 'date' };
    case 'matrix':
    case 'ranking':
    case 'consent':
      return { kind: 'presence' };
    case 'statement':
      return { kind: 'none' };
  }
}

function uniqueIds(items: readonly { id: string }[] | undefined): string[] {
  return [...new Set((items ?? []).map((item) => item.id))];
}

function optionIdsOf(question: Question): readonly string[] {
  return question.type === 'singleChoice' || question.type === 'multipleChoice' || question.type === 'ranking'
    ? uniqueIds(question.options)
    : [];
}

/** Questions a definition leaf may name, and how each answers. */
export interface SubjectScope {
  indexOf(id: string): number | undefined;
  fitOf(index: number): Fit | undefined;
  /** Conditions may read this index and those before it. */
  lastReadable: number;
  required(index: number): boolean;
}

/**
 * Compiles a definition condition. Each problem is reported once (when `report` is given) and its
 * leaf becomes false.
 */
function compileCondition(
  condition: QuestionCondition | undefined,
  scope: SubjectScope,
  path: string,
  report: Report | undefined,
  referenced: Set<number>,
): Compiled {
  if (condition === undefined) return ALWAYS;
  return compileNode(condition, scope, path, report, referenced, 'question');
}

export function compileNode<Subject extends 'question' | 'attribute'>(
  condition: Condition<Subject>,
  scope: SubjectScope,
  path: string,
  report: Report | undefined,
  referenced: Set<number>,
  subjectKey: Subject,
): Compiled {
  if ('all' in condition || 'any' in condition) {
    const kind = 'all' in condition ? 'all' : 'any';
    const list = ('all' in condition ? condition.all : (condition as { any: Condition<Subject>[] }).any) ?? [];
    return {
      kind,
      children: list.map((child, i) => compileNode(child, scope, `${path}${pointer(kind, i)}`, report, referenced, subjectKey)),
    };
  }
  const leaf = condition as Record<string, unknown> & { operator: Operator; value?: ConditionValue };
  const subjectId = String(leaf[subjectKey]);
  const operator = leaf.operator;
  const noun = subjectKey === 'question' ? 'question' : 'attribute';
  const error = (code: Issue['code'], message: string, at = subjectKey as string): Compiled => {
    report?.({ severity: 'error', code, message, path: `${path}${pointer(at)}` });
    return { kind: 'constant', value: false };
  };
  const index = scope.indexOf(subjectId);
  if (index === undefined)
    return error(
      subjectKey === 'question' ? 'unknown_question' : 'unknown_attribute',
      `no ${noun} has ${subjectKey === 'question' ? 'id' : 'key'} ${subjectId}`,
    );
  if (index > scope.lastReadable) {
    return error('reference_not_earlier', `${subjectId} is not before this point: a condition may only read earlier questions`);
  }
  const fit = scope.fitOf(index);
  if (!fit || !operatorFits(fit, operator)) {
    return error('operator_type_mismatch', `${operator} does not fit ${noun} ${subjectId} (${fit?.kind ?? 'unknown'})`, 'operator');
  }
  const checked = checkValue(fit, operator, leaf.value);
  if (!checked.ok) return error(checked.code, `${subjectId}: ${checked.message}`, 'value');
  referenced.add(index);
  if (operator === 'isAnswered') return { kind: 'leaf', leaf: presenceLeaf(index, 'answered') };
  if (operator === 'isSkipped') {
    if (scope.required(index)) {
      report?.({
        severity: 'error',
        code: 'skipped_on_required',
        message: `${subjectId} is required, so isSkipped can only mean it was never shown; test visibility instead`,
        path: `${path}${pointer('operator')}`,
      });
    }
    return { kind: 'leaf', leaf: presenceLeaf(index, 'skipped') };
  }
  return { kind: 'leaf', leaf: compareLeaf(index, operator, checked.value as NonNullable<typeof checked.value>) };
}

/** Compiles a definition; with `report`, every reference problem found on the way is reported. */
export function compileModel(definition: SurveyDefinition, report?: Report): SurveyModel {
  const indexById = new Map<string, number>();
  const kept: { question: Question; position: number }[] = [];
  definition.questions.forEach((question, position) => {
    if (indexById.has(question.id)) {
      report?.({
        severity: 'error',
        code: 'duplicate_id',
        message: `question id ${question.id} is used twice`,
        path: pointer('questions', position, 'id'),
      });
      return;
    }
    indexById.set(question.id, kept.length);
    kept.push({ question, position });
  });
  const endingIds: string[] = [];
  definition.endings.forEach((ending, position) => {
    const repeated = endingIds.includes(ending.id);
    if (repeated || indexById.has(ending.id)) {
      report?.({
        severity: 'error',
        code: 'duplicate_id',
        message: `ending id ${ending.id} is already used`,
        path: pointer('endings', position, 'id'),
      });
    }
    // An ending sharing a question's id is kept (routes to that id go to the question).
    if (!repeated) endingIds.push(ending.id);
  });
  const fits = kept.map(({ question }) => fitOf(question));
  const referenced = new Set<number>();
  const scopeUpTo = (lastReadable: number): SubjectScope => ({
    indexOf: (id) => indexById.get(id),
    fitOf: (index) => fits[index],
    lastReadable,
    required: (index) => kept[index]?.question.required === true && kept[index]?.question.type !== 'statement',
  });

  const questions = kept.map(({ question, position }, index): CompiledQuestion => {
    const at = pointer('questions', position);
    const visibleIf = compileCondition(question.visibleIf, scopeUpTo(index - 1), `${at}/visibleIf`, report, referenced);
    const routes: CompiledRoute[] = [];
    const routeConditions: Compiled[] = [];
    (question.routes ?? []).forEach((route, r) => {
      const routeAt = `${at}${pointer('routes', r)}`;
      const when = compileCondition(route.when, scopeUpTo(index), `${routeAt}/when`, report, referenced);
      routeConditions.push(when);
      const targetIndex = indexById.get(route.goTo);
      if (targetIndex !== undefined) {
        if (targetIndex <= index) {
          report?.({
            severity: 'error',
            code: 'backward_jump',
            message: `routes go forward only; ${route.goTo} is not after ${question.id}`,
            path: `${routeAt}/goTo`,
          });
          return;
        }
        routes.push({ when, target: { question: targetIndex } });
      } else if (endingIds.includes(route.goTo)) {
        routes.push({ when, target: { ending: route.goTo } });
      } else {
        report?.({
          severity: 'error',
          code: 'unknown_target',
          message: `no question or ending has id ${route.goTo}`,
          path: `${routeAt}/goTo`,
        });
      }
    });
    return {
      position,
      question,
      optionIds: optionIdsOf(question),
      visibleIf,
      routes,
      routeConditions,
      filter: compileFilter(question, index, at),
    };
  });

  function compileFilter(question: Question, index: number, at: string): CompiledFilter | undefined {
    if (!('optionFilter' in question) || !question.optionFilter) return undefined;
    const { sourceQuestionId, mode } = question.optionFilter;
    const filterAt = `${at}/optionFilter/sourceQuestionId`;
    const source = indexById.get(sourceQuestionId);
    const fail = (code: IssueCode, message: string) => {
      report?.({ severity: 'error', code, message, path: filterAt });
      return undefined;
    };
    if (source === undefined) return fail('unknown_question', `no question has id ${sourceQuestionId}`);
    if (source >= index) return fail('reference_not_earlier', `${sourceQuestionId} is not before ${question.id}`);
    const sourceQuestion = kept[source]?.question;
    if (sourceQuestion?.type !== 'singleChoice' && sourceQuestion?.type !== 'multipleChoice') {
      return fail('invalid_option_filter', `${sourceQuestionId} is not a single or multiple choice question`);
    }
    const sourceOptions = new Set(optionIdsOf(sourceQuestion));
    const foreign = optionIdsOf(question).filter((id) => !sourceOptions.has(id));
    if (foreign.length > 0) {
      report?.({
        severity: 'error',
        code: 'unknown_option',
        message: `options ${foreign.join(', ')} are not options of ${sourceQuestionId}; a filtered question uses its source's option ids`,
        path: `${at}/optionFilter`,
      });
    }
    referenced.add(source);
    return { source, mode };
  }

  return { questions, fits, indexById, endingIds, referenced };
}
