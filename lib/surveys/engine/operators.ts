/**
 * Which operators fit which kind of answer, and what value each takes. One table serves survey
 * questions and audience attributes, so a rule reads the same wherever it is written.
 */
import type { ConditionValue, Operator } from './definition.ts';

/** How a subject's answers compare; derived from a question's type or an attribute's type. */
export type Fit =
  | { kind: 'text' }
  | { kind: 'number' }
  | { kind: 'scale'; min: number; max: number }
  | { kind: 'single'; options: readonly string[] }
  | { kind: 'multi'; options: readonly string[] }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'date' }
  | { kind: 'boolean' }
  | { kind: 'presence' }
  | { kind: 'none' };

const PRESENCE: readonly Operator[] = ['isAnswered', 'isSkipped'];
const ORDERED: readonly Operator[] = ['equals', 'notEquals', 'greaterThan', 'lessThan', 'atLeast', 'atMost', ...PRESENCE];

/** The operator/type fit table (README "Survey logic" prints it). */
const OPERATORS_BY_FIT: Record<Fit['kind'], readonly Operator[]> = {
  text: ['equals', 'notEquals', 'contains', 'notContains', ...PRESENCE],
  number: ORDERED,
  scale: ORDERED,
  single: ['equals', 'notEquals', 'includesAny', 'excludesAll', ...PRESENCE],
  multi: ['includesAny', 'includesAll', 'excludesAll', ...PRESENCE],
  enum: ['equals', 'notEquals', 'includesAny', 'excludesAll', ...PRESENCE],
  date: ['equals', 'notEquals', 'before', 'after', ...PRESENCE],
  boolean: ['equals', 'notEquals', ...PRESENCE],
  presence: PRESENCE,
  none: [],
};

export function operatorFits(fit: Fit, operator: Operator): boolean {
  return OPERATORS_BY_FIT[fit.kind].includes(operator);
}

/** A comparable value: text lower-cased, dates as day numbers, lists as arrays of ids. */
export type Comparable = string | number | boolean | readonly string[];

type ValueProblem = 'invalid_value' | 'value_out_of_range' | 'unknown_option';
export type ValueCheck = { ok: true; value: Comparable | undefined } | { ok: false; code: ValueProblem; message: string };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** `YYYY-MM-DD` (a real calendar day) as days since 1970-01-01, else undefined. */
export function dayNumber(value: string): number | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return time / MS_PER_DAY;
}

function listOf(value: ConditionValue | undefined): string[] | undefined {
  if (Array.isArray(value)) return value;
  return undefined;
}

/**
 * Checks a condition's value against its subject and operator (the operator already fits) and
 * returns it in the form the evaluator compares.
 */
export function checkValue(fit: Fit, operator: Operator, value: ConditionValue | undefined): ValueCheck {
  if (operator === 'isAnswered' || operator === 'isSkipped') {
    return value === undefined
      ? { ok: true, value: undefined }
      : { ok: false, code: 'invalid_value', message: `${operator} takes no value` };
  }
  if (value === undefined) return { ok: false, code: 'invalid_value', message: `${operator} needs a value` };
  switch (fit.kind) {
    case 'text':
      return typeof value === 'string'
        ? { ok: true, value: value.toLowerCase() }
        : { ok: false, code: 'invalid_value', message: 'must be a string' };
    case 'number':
      return typeof value === 'number' ? { ok: true, value } : { ok: false, code: 'invalid_value', message: 'must be a number' };
    case 'scale':
      if (typeof value !== 'number' || !Number.isInteger(value))
        return { ok: false, code: 'invalid_value', message: 'must be a whole number' };
      if (value < fit.min || value > fit.max)
        return { ok: false, code: 'value_out_of_range', message: `must be between ${fit.min} and ${fit.max}` };
      return { ok: true, value };
    case 'date': {
      const day = typeof value === 'string' ? dayNumber(value) : undefined;
      return day === undefined ? { ok: false, code: 'invalid_value', message: 'must be a date YYYY-MM-DD' } : { ok: true, value: day };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, code: 'invalid_value', message: 'must be true or false' };
    case 'single':
    case 'enum':
    case 'multi': {
      const known = fit.kind === 'enum' ? fit.values : fit.options;
      const noun = fit.kind === 'enum' ? 'value' : 'option id';
      const isList = operator === 'includesAny' || operator === 'includesAll' || operator === 'excludesAll';
      if (!isList) {
        if (typeof value !== 'string') return { ok: false, code: 'invalid_value', message: `must be one ${noun}` };
        return known.includes(value)
          ? { ok: true, value }
          : { ok: false, code: 'unknown_option', message: `${value} is not a ${noun} of ${known.join(', ')}` };
      }
      const list = listOf(value);
      if (!list || list.length === 0) return { ok: false, code: 'invalid_value', message: `must be a non-empty list of ${noun}s` };
      const unknown = list.filter((item) => !known.includes(item));
      if (unknown.length > 0) return { ok: false, code: 'unknown_option', message: `${unknown.join(', ')} not among ${known.join(', ')}` };
      return { ok: true, value: list };
    }
    case 'presence':
    case 'none':
      return { ok: false, code: 'invalid_value', message: `${operator} does not apply` };
  }
}
