/**
 * Conditions compiled to a small tree whose leaves test one subject (a question or an audience
 * attribute, by index). The same leaves are evaluated on concrete answers (simulation) and reasoned
 * about symbolically (can this ever be true? which questions can a respondent reach?), so the two
 * can never disagree about what a condition means.
 *
 * Meaning: every operator except `isSkipped` needs an answer; on an unanswered subject it is false.
 * A leaf the validator rejects (unknown subject, operator that does not fit, bad value) is false.
 */
import type { Comparable, Fit } from './operators.ts';

export type Leaf =
  | { subject: number; test: 'answered'; key: string }
  | { subject: number; test: 'skipped'; key: string }
  | {
      subject: number;
      test: 'compare';
      operator: CompareOperator;
      value: Comparable;
      /** `answered and not (operator value)`: what negation leaves once `skipped` is split off. */
      negated: boolean;
      key: string;
    };
export type CompareOperator =
  | 'equals'
  | 'notEquals'
  | 'contains'
  | 'notContains'
  | 'greaterThan'
  | 'lessThan'
  | 'atLeast'
  | 'atMost'
  | 'includesAny'
  | 'includesAll'
  | 'excludesAll'
  | 'before'
  | 'after';

export type Compiled =
  | { kind: 'constant'; value: boolean }
  | { kind: 'leaf'; leaf: Leaf }
  | { kind: 'all'; children: Compiled[] }
  | { kind: 'any'; children: Compiled[] };

export const ALWAYS: Compiled = { kind: 'constant', value: true };

export function presenceLeaf(subject: number, test: 'answered' | 'skipped'): Leaf {
  return { subject, test, key: `${subject}:${test}` };
}

export function compareLeaf(subject: number, operator: CompareOperator, value: Comparable, negated = false): Leaf {
  return {
    subject,
    test: 'compare',
    operator,
    value,
    negated,
    key: `${subject}:${negated ? '!' : ''}${operator}:${JSON.stringify(value)}`,
  };
}

/** A concrete answer in comparable form (see operators.ts); `undefined` is "not answered". */
export type AnswerValue = string | number | boolean | readonly string[];

function compare(operator: CompareOperator, value: Comparable, answer: AnswerValue): boolean {
  switch (operator) {
    case 'equals':
      return typeof answer === 'string' && typeof value === 'string' ? answer.toLowerCase() === value.toLowerCase() : answer === value;
    case 'notEquals':
      return !compare('equals', value, answer);
    case 'contains':
      return typeof answer === 'string' && answer.toLowerCase().includes(String(value));
    case 'notContains':
      return typeof answer === 'string' && !answer.toLowerCase().includes(String(value));
    case 'greaterThan':
    case 'after':
      return typeof answer === 'number' && answer > (value as number);
    case 'lessThan':
    case 'before':
      return typeof answer === 'number' && answer < (value as number);
    case 'atLeast':
      return typeof answer === 'number' && answer >= (value as number);
    case 'atMost':
      return typeof answer === 'number' && answer <= (value as number);
    case 'includesAny':
      return (value as readonly string[]).some((item) => includes(answer, item));
    case 'includesAll':
      return (value as readonly string[]).every((item) => includes(answer, item));
    case 'excludesAll':
      return !(value as readonly string[]).some((item) => includes(answer, item));
  }
}

function includes(answer: AnswerValue, item: string): boolean {
  if (Array.isArray(answer)) return answer.includes(item);
  return typeof answer === 'string' && answer.toLowerCase() === item.toLowerCase();
}

function evaluateLeaf(leaf: Leaf, answer: AnswerValue | undefined): boolean {
  if (leaf.test === 'answered') return answer !== undefined;
  if (leaf.test === 'skipped') return answer === undefined;
  if (answer === undefined) return false;
  const result = compare(leaf.operator, leaf.value, answer);
  return leaf.negated ? !result : result;
}

export function evaluate(condition: Compiled, answerOf: (subject: number) => AnswerValue | undefined): boolean {
  switch (condition.kind) {
    case 'constant':
      return condition.value;
    case 'leaf':
      return evaluateLeaf(condition.leaf, answerOf(condition.leaf.subject));
    case 'all':
      return condition.children.every((child) => evaluate(child, answerOf));
    case 'any':
      return condition.children.some((child) => evaluate(child, answerOf));
  }
}

// ---- symbolic reasoning -------------------------------------------------------------------------

/** A conjunction of leaves; a condition in disjunctive normal form is a list of terms. */
export type Term = readonly Leaf[];
const TRUE_TERMS: Term[] = [[]];
/** Past this many terms a condition is treated as "could be anything": sound, never a false warning. */
const MAX_TERMS = 24;

/** `not leaf`, as alternatives (each a one-leaf term). */
function negateLeaf(leaf: Leaf): Leaf[] {
  if (leaf.test === 'answered') return [presenceLeaf(leaf.subject, 'skipped')];
  if (leaf.test === 'skipped') return [presenceLeaf(leaf.subject, 'answered')];
  // A comparison needs an answer, so its negation is "skipped, or answered and the opposite".
  return [presenceLeaf(leaf.subject, 'skipped'), compareLeaf(leaf.subject, leaf.operator, leaf.value, !leaf.negated)];
}

/**
 * The condition (or its negation) as a list of satisfiable terms; `[]` means it can never hold.
 * `fits` gives each subject's fit so unsatisfiable terms are pruned as they are built.
 */
export function toTerms(condition: Compiled, negate: boolean, fits: readonly Fit[]): Term[] {
  const terms = termsOf(condition, negate, fits);
  return terms ?? TRUE_TERMS;
}

function termsOf(condition: Compiled, negate: boolean, fits: readonly Fit[]): Term[] | undefined {
  switch (condition.kind) {
    case 'constant':
      return condition.value !== negate ? TRUE_TERMS : [];
    case 'leaf':
      return negate ? negateLeaf(condition.leaf).map((leaf) => [leaf]) : [[condition.leaf]];
    case 'all':
    case 'any': {
      const conjunction = (condition.kind === 'all') !== negate;
      if (!conjunction) {
        const terms: Term[] = [];
        for (const child of condition.children) {
          const childTerms = termsOf(child, negate, fits);
          if (childTerms === undefined) return undefined;
          terms.push(...childTerms);
          if (terms.length > MAX_TERMS) return undefined;
        }
        return terms;
      }
      let terms: Term[] = TRUE_TERMS;
      for (const child of condition.children) {
        // An overflowing child is dropped from the conjunction: a weaker condition, still sound.
        const childTerms = termsOf(child, negate, fits);
        if (childTerms === undefined) continue;
        const product: Term[] = [];
        for (const left of terms) {
          for (const right of childTerms) {
            const joined = joinTerms(left, right, fits);
            if (joined) product.push(joined);
          }
        }
        if (product.length > MAX_TERMS) return undefined;
        terms = product;
        if (terms.length === 0) return terms;
      }
      return terms;
    }
  }
}

/** `left and right`, or undefined when that can never hold. */
export function joinTerms(left: Term, right: Term, fits: readonly Fit[]): Term | undefined {
  if (right.length === 0) return left;
  // Terms are short (a handful of leaves), so scans beat building sets here: this is the hot path.
  // Terms stay sorted by leaf key, so equal terms have equal keys without sorting again.
  let joined: Leaf[] | undefined;
  for (const leaf of right) {
    const list: readonly Leaf[] = joined ?? left;
    let at = 0;
    while (at < list.length && (list[at] as Leaf).key < leaf.key) at++;
    if (at < list.length && (list[at] as Leaf).key === leaf.key) continue;
    joined ??= left.slice();
    joined.splice(at, 0, leaf);
    if (!subjectSatisfiable(fits[leaf.subject], joined, leaf.subject)) return undefined;
  }
  return joined ?? left;
}

export function canBeTrue(condition: Compiled, fits: readonly Fit[]): boolean {
  return toTerms(condition, false, fits).length > 0;
}

type Comparison = Extract<Leaf, { test: 'compare' }>;

/** Is there an answer (or its absence) for which every leaf of `leaves` about `subject` holds? */
function subjectSatisfiable(fit: Fit | undefined, leaves: readonly Leaf[], subject: number): boolean {
  let needsAnswer = false;
  let needsSkip = false;
  let comparisons: Comparison[] | undefined;
  for (const leaf of leaves) {
    if (leaf.subject !== subject) continue;
    if (leaf.test === 'skipped') needsSkip = true;
    else {
      needsAnswer = true;
      if (leaf.test === 'compare') {
        comparisons ??= [];
        comparisons.push(leaf);
      }
    }
  }
  if (needsAnswer && needsSkip) return false;
  if (!needsAnswer) return true;
  if (!fit || fit.kind === 'none') return false;
  if (!comparisons) return true;
  const holds = (answer: AnswerValue) => comparisons.every((leaf) => evaluateLeaf(leaf, answer));
  switch (fit.kind) {
    case 'single':
      return fit.options.some(holds);
    case 'enum':
      return fit.values.some(holds);
    case 'scale': {
      for (let value = fit.min; value <= fit.max; value++) if (holds(value)) return true;
      return false;
    }
    case 'boolean':
      return holds(true) || holds(false);
    case 'presence':
      return true;
    case 'number':
      return numberCandidates(comparisons, false).some(holds);
    case 'date':
      return numberCandidates(comparisons, true).some(holds);
    case 'text':
      return textSatisfiable(comparisons);
    case 'multi':
      return multiSatisfiable(fit.options, comparisons);
  }
}

/**
 * Every comparison is against a constant, so between two neighbouring constants all points agree:
 * the constants, a point strictly between each neighbouring pair, and one beyond each end cover
 * every case.
 */
function numberCandidates(comparisons: readonly Comparison[], integers: boolean): number[] {
  const constants = [...new Set(comparisons.map((leaf) => leaf.value).filter((value): value is number => typeof value === 'number'))];
  if (integers) {
    const extended = new Set<number>();
    for (const value of constants)
      for (const near of [Math.floor(value) - 1, Math.floor(value), Math.ceil(value), Math.ceil(value) + 1]) extended.add(near);
    return extended.size > 0 ? [...extended] : [0];
  }
  constants.sort((a, b) => a - b);
  if (constants.length === 0) return [0];
  const candidates = [...constants, (constants[0] as number) - 1, (constants[constants.length - 1] as number) + 1];
  for (let i = 1; i < constants.length; i++) candidates.push(((constants[i - 1] as number) + (constants[i] as number)) / 2);
  return candidates;
}

/**
 * Text: with an exact value the answer is that value; otherwise it is a free string that must
 * contain some pieces and avoid others, which fails only when a piece to avoid sits inside a
 * piece to include (joining the pieces with a character no avoided piece has does the rest).
 */
function textSatisfiable(comparisons: readonly Comparison[]): boolean {
  const exact = new Set<string>();
  const include: string[] = [];
  const avoid: string[] = [];
  for (const leaf of comparisons) {
    const value = String(leaf.value).toLowerCase();
    const positive = !leaf.negated;
    if (leaf.operator === 'equals' && positive) exact.add(value);
    else if (leaf.operator === 'notEquals' && !positive) exact.add(value);
    else if (leaf.operator === 'contains') (positive ? include : avoid).push(value);
    else if (leaf.operator === 'notContains') (positive ? avoid : include).push(value);
  }
  if (exact.size > 0) {
    const [candidate] = exact;
    return candidate !== undefined && candidate.trim().length > 0 && comparisons.every((leaf) => evaluateLeaf(leaf, candidate));
  }
  if (avoid.includes('')) return false;
  return !avoid.some((piece) => include.some((needed) => needed.includes(piece)));
}

/** A search budget for multiple-choice reasoning; when spent the answer is "possible" (sound). */
const MULTI_BUDGET = 2_000;

/**
 * Multiple choice: forbidden options go, required ones stay; each "not all of" needs one of its
 * options dropped, tried in turn; "some of" and "all of" are checked on what remains.
 */
function multiSatisfiable(options: readonly string[], comparisons: readonly Comparison[]): boolean {
  const known = new Set(options);
  const forbidden = new Set<string>();
  const required = new Set<string>();
  const someOf: (readonly string[])[] = [];
  const notAllOf: (readonly string[])[] = [];
  for (const leaf of comparisons) {
    const values = Array.isArray(leaf.value) ? (leaf.value as readonly string[]) : [String(leaf.value)];
    const kind = leaf.operator;
    const positive = !leaf.negated;
    if ((kind === 'excludesAll' && positive) || (kind === 'includesAny' && !positive)) for (const value of values) forbidden.add(value);
    else if ((kind === 'includesAny' && positive) || (kind === 'excludesAll' && !positive)) someOf.push(values);
    else if (kind === 'includesAll' && positive) {
      for (const value of values) {
        if (!known.has(value)) return false;
        required.add(value);
      }
    } else if (kind === 'includesAll' && !positive) {
      if (values.every((value) => known.has(value))) notAllOf.push(values);
    } else return false; // equals/contains on a multiple choice never hold (not in the fit table)
  }
  for (const value of required) if (forbidden.has(value)) return false;
  const chosen = new Set(options.filter((option) => !forbidden.has(option)));
  let budget = MULTI_BUDGET;
  const search = (index: number): boolean => {
    if (--budget < 0) return true;
    if (index === notAllOf.length) return chosen.size > 0 && someOf.every((values) => values.some((value) => chosen.has(value)));
    const values = notAllOf[index] as readonly string[];
    if (!values.every((value) => chosen.has(value))) return search(index + 1);
    for (const value of values) {
      if (required.has(value)) continue;
      chosen.delete(value);
      const found = search(index + 1);
      chosen.add(value);
      if (found) return true;
    }
    return false;
  };
  return search(0);
}
