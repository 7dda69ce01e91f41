/**
 * What the demo would write, against what is there. A later run finds each record by its natural key
 * and compares every member the demo writes (deeply: arrays item by item, in order); members only the
 * API adds (ids, timestamps, translation states, `body: null`) are not compared. The demo reports
 * each difference and leaves the record as it is: it may be someone's change, and a published survey
 * or journey version cannot be put back, only superseded.
 */

export interface Difference {
  /** Where, from the record: `status`, `steps[2].titleEn`, `definition.questions`. */
  path: string;
  expected: unknown;
  actual: unknown;
}

export function differencesFrom(expected: unknown, actual: unknown, path = ''): Difference[] {
  if (expected === undefined) return [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path, expected, actual }];
    return expected.flatMap((item, index) => differencesFrom(item, actual[index], `${path}[${index}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [{ path, expected, actual }];
    return Object.entries(expected).flatMap(([key, member]) =>
      differencesFrom(member, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key),
    );
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, actual }];
}

const MAX_SHOWN = 3;

function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function described({ path, expected, actual }: Difference): string {
  const where = path || 'it';
  if (Array.isArray(expected) && Array.isArray(actual)) return `${where} has ${actual.length} items, the demo wrote ${expected.length}`;
  return `${where} is ${shown(actual)}, the demo wrote ${shown(expected)}`;
}

/** One line for a record: `idea "Track my refund": status is "planned", the demo wrote "new"`. */
export function describeDifferences(record: string, differences: readonly Difference[]): string {
  const listed = differences.slice(0, MAX_SHOWN).map(described).join('; ');
  const more = differences.length > MAX_SHOWN ? `; and ${differences.length - MAX_SHOWN} more` : '';
  return `${record}: ${listed}${more}`;
}
