/**
 * The per-range response counters (entities.ts `responseCounterEntity`): one item per response range,
 * holding a count per (version, status). The list's `total` sums the counts its filters select over
 * every counter item, and a range whose counter selects nothing holds no response the list wants, so
 * the list leaves it out (response-list.ts). That needs the count of a response kept in the counter
 * of the range that holds it: a response still in the legacy layout is counted where the rule before
 * migration 002 put it (16 counters, by the first byte of SHA-256 of its id), and moving it moves its
 * count too (`countMoves`). Pure, so the store and the migration move counts the same way.
 */
import { createHash } from 'node:crypto';
import { surveyResponseShardOf } from './entities.ts';
import type { SurveyResponse } from './schemas.ts';

export const COUNTER_ENTITY = 'SurveyResponseCounter';

/** The counter of a response in the current layout: the one of its range. */
export const counterShardOf = (responseId: string): number => surveyResponseShardOf(responseId);

/** The counter a response in the legacy layout was counted in (the rule before migration 002). */
export function legacyCounterShardOf(responseId: string): number {
  return (createHash('sha256').update(responseId).digest()[0] as number) % 16;
}

/** The counter attribute of a (version, status) pair; the list's `total` sums the ones its filters match. */
function counterAttribute(versionId: string, status: SurveyResponse['status']): string {
  return `n_${versionId.replaceAll('-', '')}_${status}`;
}

export function parseCounterAttribute(name: string): { versionHex: string; status: string } | null {
  const match = /^n_([0-9a-f]{32})_(partial|finished)$/.exec(name);
  return match ? { versionHex: match[1] as string, status: match[2] as string } : null;
}

/** Deltas for one counter item: attribute → change. */
export type CounterDeltas = Map<number, Map<string, number>>;

/**
 * The counter changes of a response going from `before` (its counter and status) to `after`,
 * merged per counter item (a transaction may name an item once) and without zero changes.
 */
export function countMoves(
  versionId: string,
  before: { shard: number; status: SurveyResponse['status'] } | null,
  after: { shard: number; status: SurveyResponse['status'] } | null,
): CounterDeltas {
  const deltas: CounterDeltas = new Map();
  const change = (shard: number, status: SurveyResponse['status'], by: number) => {
    const item = deltas.get(shard) ?? new Map<string, number>();
    const attribute = counterAttribute(versionId, status);
    const next = (item.get(attribute) ?? 0) + by;
    if (next === 0) item.delete(attribute);
    else item.set(attribute, next);
    if (item.size > 0) deltas.set(shard, item);
    else deltas.delete(shard);
  };
  if (before) change(before.shard, before.status, -1);
  if (after) change(after.shard, after.status, 1);
  return deltas;
}
