/**
 * Projection helpers: a store names the attributes it reads, and gets the expression with every
 * name behind a placeholder (`#p0`, …), so a reserved word (`status`, `name`) never breaks a read.
 */

export interface Projection {
  ProjectionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
}

/** Read only `attributes` (placeholders `#<prefix>0`, `#<prefix>1`, …). */
export function projection(attributes: readonly string[], prefix = 'p'): Projection {
  return {
    ProjectionExpression: attributes.map((_, i) => `#${prefix}${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#${prefix}${i}`, name])),
  };
}

/** `projection` with extra attributes read as they are (keys, counters: names that need no placeholder). */
export function projectionWith(attributes: readonly string[], plain: readonly string[]): Projection {
  const base = projection(attributes);
  return { ...base, ProjectionExpression: [...plain, base.ProjectionExpression].join(', ') };
}
