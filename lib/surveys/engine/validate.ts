/**
 * Validation of a definition: every error (publish refuses them) and warning (worth a look) as an
 * issue with a JSON Pointer. Reference and operator errors come from compiling the model; the
 * warnings come from reasoning over it (reach.ts, conditions.ts).
 */
import { type Compiled, canBeTrue } from './conditions.ts';
import type { Question, QuestionCondition, ShownText, SurveyDefinition } from './definition.ts';
import { type CompiledQuestion, compileModel, type Issue, pointer, type SurveyModel } from './model.ts';
import { analyseReach, type Reachability } from './reach.ts';

export type { Issue } from './model.ts';

export interface Validation {
  issues: Issue[];
  model: SurveyModel;
  reach: Reachability;
}

export function validateDefinition(definition: SurveyDefinition): Issue[] {
  return analyse(definition).issues;
}

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}

export function analyse(definition: SurveyDefinition): Validation {
  const issues: Issue[] = [];
  const report = (issue: Issue) => issues.push(issue);
  if (definition.questions.length === 0) {
    report({
      severity: 'error',
      code: 'no_questions',
      message: 'a survey needs at least one question to be published',
      path: '/questions',
    });
  }
  const model = compileModel(definition, report);
  checkItemIds(definition, report);
  checkTranslations(definition, report);
  const reach = analyseReach(model);
  for (const compiled of model.questions) checkLogic(model, compiled, reach, report);
  definition.endings.forEach((ending, position) => {
    if (model.endingIds.includes(ending.id) && !reach.endings.has(ending.id) && model.endingIds.indexOf(ending.id) === position) {
      report({
        severity: 'warning',
        code: 'unreachable_ending',
        message: `no path ends at ${ending.id}: no route reaches it${position === 0 ? ' and every path ends elsewhere' : ''}`,
        path: pointer('endings', position),
      });
    }
  });
  return { issues, model, reach };
}

/** Repeated option, row and column ids inside one question. */
function checkItemIds(definition: SurveyDefinition, report: (issue: Issue) => void): void {
  definition.questions.forEach((question, position) => {
    const lists: [string, readonly { id: string }[]][] = [];
    if ('options' in question) lists.push(['options', question.options]);
    if (question.type === 'matrix') lists.push(['rows', question.rows], ['columns', question.columns]);
    for (const [name, items] of lists) {
      const seen = new Set<string>();
      items.forEach((item, i) => {
        if (seen.has(item.id)) {
          report({
            severity: 'error',
            code: 'duplicate_id',
            message: `${name} id ${item.id} is used twice in ${question.id}`,
            path: pointer('questions', position, name, i, 'id'),
          });
        }
        seen.add(item.id);
      });
    }
  });
}

function shownTexts(question: Question): [string, ShownText][] {
  const texts: [string, ShownText | undefined][] = [
    ['headline', question.headline],
    ['description', question.description],
  ];
  if ('lowerLabel' in question) texts.push(['lowerLabel', question.lowerLabel], ['upperLabel', question.upperLabel]);
  if (question.type === 'openText') texts.push(['placeholder', question.placeholder]);
  if (question.type === 'consent') texts.push(['label', question.label]);
  if (question.type === 'statement') texts.push(['buttonLabel', question.buttonLabel]);
  if ('options' in question) {
    question.options.forEach((option, i) => {
      texts.push([`options/${i}/label`, option.label]);
    });
  }
  if (question.type === 'matrix') {
    question.rows.forEach((row, i) => {
      texts.push([`rows/${i}/label`, row.label]);
    });
    question.columns.forEach((column, i) => {
      texts.push([`columns/${i}/label`, column.label]);
    });
  }
  return texts.filter((entry): entry is [string, ShownText] => entry[1] !== undefined);
}

function checkTranslations(definition: SurveyDefinition, report: (issue: Issue) => void): void {
  const check = (text: ShownText, path: string) => {
    const missing = definition.languages.filter((language) => !text[language]?.trim());
    if (missing.length > 0) {
      report({
        severity: 'error',
        code: 'missing_translation',
        message: `no ${missing.join(' or ')} text (the survey is in ${definition.languages.join(', ')})`,
        path,
      });
    }
  };
  definition.questions.forEach((question, position) => {
    for (const [name, text] of shownTexts(question)) check(text, `${pointer('questions', position)}/${name}`);
  });
  definition.endings.forEach((ending, position) => {
    check(ending.headline, pointer('endings', position, 'headline'));
    if (ending.description) check(ending.description, pointer('endings', position, 'description'));
  });
}

function checkLogic(model: SurveyModel, compiled: CompiledQuestion, reach: Reachability, report: (issue: Issue) => void): void {
  const { question, position } = compiled;
  const at = pointer('questions', position);
  const state = reach.questions[model.indexById.get(question.id) as number];
  if (state && !state.shown) {
    const why = !state.arrives
      ? 'routes jump over it on every path'
      : state.emptiedByFilter && !state.hiddenByVisibility
        ? 'its option filter leaves it no options on every path'
        : 'its visibleIf is false on every path that reaches it';
    report({ severity: 'warning', code: 'unreachable_question', message: `no respondent can see ${question.id}: ${why}`, path: at });
  }
  neverTrue(model, question.visibleIf, compiled.visibleIf, `${at}/visibleIf`, report);
  (question.routes ?? []).forEach((route, r) => {
    neverTrue(model, route.when, compiled.routeConditions[r] as Compiled, `${at}${pointer('routes', r)}/when`, report);
  });
  if (state?.shown && question.required) {
    if (state.emptiedByFilter) {
      report({
        severity: 'warning',
        code: 'option_filter_may_empty',
        message: `${question.id} is required but its option filter can leave it no options, and then it is skipped`,
        path: `${at}/optionFilter`,
      });
    }
    if (state.hiddenByVisibility) {
      report({
        severity: 'warning',
        code: 'required_sometimes_hidden',
        message: `${question.id} is required but only sometimes visible, so some respondents never answer it`,
        path: `${at}/visibleIf`,
      });
    }
  }
}

/**
 * Reports the outermost parts of a condition that can never hold (a whole condition, or a group
 * within it); a part already broken by an error is left to that error.
 */
function neverTrue(
  model: SurveyModel,
  raw: QuestionCondition | undefined,
  compiled: Compiled,
  path: string,
  report: (issue: Issue) => void,
): void {
  if (raw === undefined) return;
  visit(raw, compiled, path);

  function visit(node: QuestionCondition, compiledNode: Compiled, at: string): void {
    if (compiledNode.kind === 'constant' || compiledNode.kind === 'leaf') return;
    if (!containsConstant(compiledNode) && !canBeTrue(compiledNode, model.fits)) {
      report({
        severity: 'warning',
        code: 'condition_never_true',
        message: 'this condition can never be true: its parts contradict each other',
        path: at,
      });
      return;
    }
    const kind = 'all' in node ? 'all' : 'any';
    const children = 'all' in node ? node.all : 'any' in node ? node.any : [];
    children.forEach((child, i) => {
      const compiledChild = compiledNode.children[i];
      if (compiledChild) visit(child, compiledChild, `${at}${pointer(kind, i)}`);
    });
  }
}

/** Leaves already reported as errors compile to constants; those conditions are not judged again. */
function containsConstant(node: Compiled): boolean {
  if (node.kind === 'constant') return true;
  if (node.kind === 'leaf') return false;
  return node.children.some(containsConstant);
}
