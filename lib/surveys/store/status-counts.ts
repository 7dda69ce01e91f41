/**
 * The workspace's survey counter (`SURVEY$COUNT`): how many surveys are in each listed status
 * (draft, published, closed; archived surveys are not counted). It sorts after every survey, so a
 * descending Query of the surveys meets it first (lib/platform/data/list-walk.ts).
 */
import { tableName } from '../../platform/data/client.ts';
import type { TransactWrite } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { surveyCounterEntity } from '../entities.ts';
import { COUNTER_ENTITY } from '../record.ts';
import type { ListedStatus, Survey } from '../schemas.ts';

export const LISTED_STATUSES: readonly ListedStatus[] = ['draft', 'published', 'closed'];

/** The total of `statuses` the counter item holds (0 for none). */
export function totalOf(counter: Record<string, unknown> | undefined, statuses: readonly ListedStatus[]): number {
  return Math.max(
    0,
    statuses.reduce((sum, name) => sum + ((counter?.[`${name}Count`] as number | undefined) ?? 0), 0),
  );
}

/** The counter's change for a survey moving from one status to another (null for none), as a transaction item. */
export function counterMove(workspace: string, from: Survey['status'] | null, to: Survey['status'] | null): TransactWrite | false {
  if (from === to) return false;
  const change = update().set('entity', COUNTER_ENTITY);
  let moved = false;
  if (from && from !== 'archived') {
    change.add(`${from}Count`, -1);
    moved = true;
  }
  if (to && to !== 'archived') {
    change.add(`${to}Count`, 1);
    moved = true;
  }
  if (!moved) return false;
  return { Update: { TableName: tableName, Key: surveyCounterEntity.keys.counter(workspace), ...change.build() } };
}
