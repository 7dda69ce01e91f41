/**
 * Audience targeting: `targetingRules.filters` is a condition over the workspace's audience
 * attributes (the catalog an operator sets with `cxctl audience set`). Unlike a draft's issues,
 * every problem here is a rejection: a rule that cannot match anyone must never be saved, because
 * it would silently target no one.
 */
import * as z from 'zod/mini';
import { canBeTrue } from './conditions.ts';
import { type AttributeCondition, attributeKey, conditionCount, conditionDepth, conditionSchema, DEFINITION_LIMITS } from './definition.ts';
import { compileNode, type Issue, pointer } from './model.ts';
import type { Fit } from './operators.ts';

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

  const indexByKey = new Map(catalog.map((attribute, index) => [attribute.key, index]));
  const fits = catalog.map(fitOfAttribute);
  const report = (issue: Issue) => problems.push({ path: issue.path, message: issue.message });
  const compiled = compileNode<'attribute'>(
    rules.filters as AttributeCondition,
    {
      indexOf: (key) => indexByKey.get(key),
      fitOf: (index) => fits[index],
      lastReadable: catalog.length,
      required: () => false,
    },
    pointer('filters'),
    report,
    new Set(),
    'attribute',
  );
  if (problems.length === 0 && !canBeTrue(compiled, fits)) {
    problems.push({ path: '/filters', message: 'these filters contradict each other, so the survey would target no one' });
  }
  return problems;
}
