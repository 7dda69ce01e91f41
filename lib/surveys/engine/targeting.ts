/**
 * Audience targeting: `targetingRules.filters` is a condition over the workspace's audience
 * attributes (the catalog an operator sets with `cxctl audience set`). Unlike a draft's issues,
 * every problem here is a rejection: a rule that cannot match anyone must never be saved, because
 * it would silently target no one.
 */
import * as z from 'zod/mini';
import { type AnswerValue, canBeTrue, evaluate } from './conditions.ts';
import { type AttributeCondition, attributeKey, conditionCount, conditionDepth, conditionSchema, DEFINITION_LIMITS } from './definition.ts';
import { compileNode, type Issue, pointer, type Report } from './model.ts';
import { dayNumber, type Fit } from './operators.ts';

const TARGETING_LIMITS = { conditions: 50, depth: DEFINITION_LIMITS.conditionDepth, attributes: 200, values: 100 } as const;

export const audienceAttribute = z.strictObject({
  key: attributeKey,
  type: z.enum(['string', 'number', 'date', 'boolean']),
  values: z.optional(
    z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.minLength(1), z.maxLength(TARGETING_LIMITS.values)),
  ),
});
export type AudienceAttribute = z.output<typeof audienceAttribute>;

export const audienceCatalog = z.strictObject({
  attributes: z.array(audienceAttribute).check(
    z.maxLength(TARGETING_LIMITS.attributes),
    z.refine(
      (attributes) => new Set(attributes.map((attribute) => attribute.key)).size === attributes.length,
      'attribute keys must be unique',
    ),
    z.refine(
      (attributes) => attributes.every((attribute) => attribute.values === undefined || attribute.type === 'string'),
      'only string attributes take a list of values',
    ),
  ),
});

/** Shape only; depth and count are checked with the catalog so every problem is listed at once. */
export const targetingRules = z.strictObject({ filters: conditionSchema('attribute') }).register(z.globalRegistry, {
  description: 'Who the survey is for: a condition over audience attributes (GET /surveys/audience-attributes)',
});
export type TargetingRules = z.output<typeof targetingRules>;

function fitOfAttribute(attribute: AudienceAttribute): Fit {
  switch (attribute.type) {
    case 'string':
      return attribute.values ? { kind: 'enum', values: attribute.values } : { kind: 'text' };
    case 'number':
      return { kind: 'number' };
    case 'date':
      return { kind: 'date' };
    case 'boolean':
      return { kind: 'boolean' };
  }
}

export interface TargetingProblem {
  path: string;
  message: string;
}

/** Every problem of a rule against the catalog; empty when it may be saved. */
export function validateTargeting(rules: TargetingRules, catalog: readonly AudienceAttribute[]): TargetingProblem[] {
  const problems: TargetingProblem[] = [];
  const depth = conditionDepth(rules.filters);
  if (depth > TARGETING_LIMITS.depth)
    problems.push({ path: '/filters', message: `conditions nest ${depth} all/any levels; at most ${TARGETING_LIMITS.depth}` });
  const count = conditionCount(rules.filters);
  if (count > TARGETING_LIMITS.conditions)
    problems.push({ path: '/filters', message: `${count} conditions; at most ${TARGETING_LIMITS.conditions}` });
  if (problems.length > 0) return problems;

  const fits = catalog.map(fitOfAttribute);
  const report = (issue: Issue) => problems.push({ path: issue.path, message: issue.message });
  const compiled = compileFilters(
    rules,
    catalog.map((attribute) => attribute.key),
    fits,
    report,
  );
  if (problems.length === 0 && !canBeTrue(compiled, fits)) {
    problems.push({ path: '/filters', message: 'these filters contradict each other, so the survey would target no one' });
  }
  return problems;
}

/**
 * A rule's filters compiled over attributes in this order (an attribute's slot is its index in
 * `keysInOrder`), each issue told to `report` when there is one to tell.
 */
function compileFilters(rules: TargetingRules, keysInOrder: readonly string[], fits: readonly Fit[], report?: Report) {
  const indexByKey = new Map(keysInOrder.map((key, index) => [key, index]));
  return compileNode<'attribute'>(
    rules.filters as AttributeCondition,
    {
      indexOf: (key) => indexByKey.get(key),
      fitOf: (index) => fits[index],
      lastReadable: keysInOrder.length,
      required: () => false,
    },
    pointer('filters'),
    report,
    new Set(),
    'attribute',
  );
}

/** A respondent's attribute values, as an integrator sends them. */
export type RespondentAttributes = Readonly<Record<string, string | number | boolean>>;

/** Every leaf of a rule, with its attribute key, operator and value. */
function leavesOf(condition: AttributeCondition): { attribute: string; operator: string; value?: unknown }[] {
  if ('all' in condition) return condition.all.flatMap(leavesOf);
  if ('any' in condition) return condition.any.flatMap(leavesOf);
  return [condition as { attribute: string; operator: string; value?: unknown }];
}

/**
 * How each attribute a rule names compares, read from the rule itself: the rule was checked
 * against the catalog when it was saved, so its operators and values already say each attribute's
 * type, and a respondent check needs no read of the catalog. A string attribute becomes an enum of
 * the values the rule names (equality and membership read the same either way).
 */
function fitsFromRule(rules: TargetingRules): Map<string, Fit> {
  const seen = new Map<string, { date: boolean; text: boolean; number: boolean; boolean: boolean; strings: Set<string> }>();
  for (const leaf of leavesOf(rules.filters as AttributeCondition)) {
    const entry = seen.get(leaf.attribute) ?? { date: false, text: false, number: false, boolean: false, strings: new Set<string>() };
    if (leaf.operator === 'before' || leaf.operator === 'after') entry.date = true;
    // Only free text takes contains/notContains (operators.ts).
    if (leaf.operator === 'contains' || leaf.operator === 'notContains') entry.text = true;
    const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
    for (const value of values) {
      if (typeof value === 'number') entry.number = true;
      else if (typeof value === 'boolean') entry.boolean = true;
      else if (typeof value === 'string') entry.strings.add(value);
    }
    seen.set(leaf.attribute, entry);
  }
  const fits = new Map<string, Fit>();
  for (const [key, entry] of seen) {
    if (entry.date) fits.set(key, { kind: 'date' });
    else if (entry.number) fits.set(key, { kind: 'number' });
    else if (entry.boolean) fits.set(key, { kind: 'boolean' });
    else if (entry.text) fits.set(key, { kind: 'text' });
    else fits.set(key, { kind: 'enum', values: [...entry.strings] });
  }
  return fits;
}

/** A respondent value in the form conditions compare, or undefined (no answer) when it cannot be one. */
function comparableOf(fit: Fit, value: string | number | boolean | undefined): AnswerValue | undefined {
  if (value === undefined) return undefined;
  switch (fit.kind) {
    case 'date':
      return typeof value === 'string' ? dayNumber(value) : undefined;
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    default:
      return typeof value === 'string' ? value : undefined;
  }
}

/** Whether a respondent with these attribute values is among those the rule targets. */
export function matchesTargeting(rules: TargetingRules, attributes: RespondentAttributes): boolean {
  const fits = fitsFromRule(rules);
  const keysInOrder = [...fits.keys()];
  const fitList = keysInOrder.map((key) => fits.get(key) as Fit);
  const compiled = compileFilters(rules, keysInOrder, fitList);
  return evaluate(compiled, (index) => {
    const key = keysInOrder[index] as string;
    return comparableOf(fitList[index] as Fit, attributes[key]);
  });
}
