/**
 * The ranks of ideas (vote-entities.ts `rankEntity`): two small items per idea whose gsi1 entries
 * order the lists by votes and by trending, and the VOTES one doubling as the idea's gate for votes.
 *   create / delete  their Puts and Deletes join the idea's own transaction
 *   gate             one GetItem, eventually consistent (half a read unit: a viral idea's 2,000 votes a
 *                    second spend a third of its partition's reads); a stale answer costs nothing, since
 *                    the vote's shard refuses a vote on a closed idea itself
 *   recompute        the table stream's fold writes both ranks in one transaction, on condition that
 *                    the shards' `seq` it summed is newer than the one they hold
 *   list             one Query of gsi1 per listing (two with the merged ideas), merged by rank
 */
import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { readMerged } from '../../platform/data/sharded-ranges.ts';
import { TABLE } from '../../platform/data/table.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import type { MergeState, MergeWork } from '../merging.ts';
import { rankOfTrend, rankOfVotes, trendLogOf, trendSums } from '../trending.ts';
import type { ShardSums } from '../vote-count.ts';
import { type RankKind, rankEntity } from '../vote-entities.ts';

type Item = Record<string, unknown>;

const KINDS: RankKind[] = ['VOTES', 'TREND'];

/** The Puts of a new idea's ranks (no votes yet), for its create transaction. */
export function newRankWrites(workspace: string, ideaId: string): Record<string, TransactWrite> {
  const zero = { VOTES: rankOfVotes(0), TREND: rankOfTrend(null) };
  return Object.fromEntries(
    KINDS.map((kind) => [
      `rank${kind}`,
      {
        Put: {
          TableName: tableName,
          Item: {
            ...rankEntity.keys.rank(workspace, ideaId, kind),
            entity: rankEntity.name,
            workspace,
            ideaId,
            kind,
            seq: 0,
            gsi1pk: rankEntity.keys.listing(workspace, kind, false),
            gsi1sk: rankEntity.keys.sortKey(zero[kind], ideaId),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]),
  );
}

/**
 * The Deletes of an idea's ranks, for its delete transaction: the gate's (`rankVOTES`) on condition
 * that no merge or unmerge of the idea is still moving votes.
 */
export function rankDeletes(workspace: string, ideaId: string): Record<string, TransactWrite> {
  return Object.fromEntries(
    KINDS.map((kind) => [
      `rank${kind}`,
      {
        Delete: {
          TableName: tableName,
          Key: rankEntity.keys.rank(workspace, ideaId, kind),
          ...(kind === 'VOTES' ? { ConditionExpression: 'attribute_not_exists(mergeWork)' } : {}),
        },
      },
    ]),
  );
}

/** What a vote needs to know of an idea before it writes: whether it exists, and whether it is merged. */
export interface VoteGate extends Pick<MergeState, 'mergedInto' | 'mergeWork'> {
  /** Counts every merge and unmerge of the idea: the fence of the vote moves each one makes. */
  mergeGeneration: number;
  /** For an unmerge still moving votes: the idea it was merged into. */
  mergeTarget: string | null;
}

export function gateOf(item: Item | undefined): VoteGate | null {
  if (!item) return null;
  return {
    mergedInto: (item.mergedInto as string | undefined) ?? null,
    mergeWork: (item.mergeWork as MergeWork | undefined) ?? null,
    mergeGeneration: (item.mergeGeneration as number | undefined) ?? 0,
    mergeTarget: (item.mergeTarget as string | undefined) ?? null,
  };
}

/** The idea's gate, or null when the idea does not exist. */
export async function findVoteGate(workspace: string, ideaId: string, options: { consistent?: boolean } = {}): Promise<VoteGate | null> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: rankEntity.keys.rank(workspace, ideaId, 'VOTES'),
      ConsistentRead: options.consistent ?? false,
    }),
  );
  return gateOf(Item);
}

export const gateKey = (workspace: string, ideaId: string) => rankEntity.keys.rank(workspace, ideaId, 'VOTES');
export const trendRankKey = (workspace: string, ideaId: string) => rankEntity.keys.rank(workspace, ideaId, 'TREND');

/**
 * Write the ranks the shards' sums give, unless newer sums were written already (`stale`) or the idea
 * is gone (`gone`: its ranks were deleted with it).
 */
export async function writeRanks(workspace: string, ideaId: string, sums: ShardSums): Promise<'written' | 'stale' | 'gone'> {
  const ranks = { VOTES: rankOfVotes(sums.voteCount), TREND: rankOfTrend(trendLogOf(trendSums(sums.items))) };
  const write = (kind: RankKind): TransactWrite => ({
    Update: {
      TableName: tableName,
      Key: rankEntity.keys.rank(workspace, ideaId, kind),
      ...update()
        .set('gsi1sk', rankEntity.keys.sortKey(ranks[kind], ideaId))
        .set('seq', sums.seq)
        .build({ expression: 'attribute_exists(pk) AND seq < :seq', values: { ':seq': sums.seq } }),
    },
  });
  try {
    await transact({ votes: write('VOTES'), trend: write('TREND') });
    return 'written';
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    const current = error.current('votes') ?? error.current('trend');
    return current ? 'stale' : 'gone';
  }
}

export interface RankPage {
  ideaIds: string[];
  hasMore: boolean;
  lastKey: PageKey | undefined;
}

/**
 * One page of idea ids in rank order: `descending` for `-votes` and `trending`. A cursor is the last
 * entry's rank key; each listing's Query starts past it.
 */
export async function listRanked(
  workspace: string,
  kind: RankKind,
  options: { descending: boolean; includeMerged: boolean },
  { limit, offset, after }: PageStart,
): Promise<RankPage> {
  const from = typeof after?.gsi1sk === 'string' ? after.gsi1sk : undefined;
  const listings = [false, ...(options.includeMerged ? [true] : [])].map((merged) => rankEntity.keys.listing(workspace, kind, merged));
  const ranges: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>[] = listings.map((listing) => ({
    TableName: tableName,
    IndexName: TABLE.gsi1.name,
    KeyConditionExpression: `gsi1pk = :pk${from === undefined ? '' : ` AND gsi1sk ${options.descending ? '<' : '>'} :after`}`,
    ExpressionAttributeValues: { ':pk': listing, ...(from === undefined ? {} : { ':after': from }) },
    ProjectionExpression: 'gsi1sk',
    ScanIndexForward: !options.descending,
  }));
  const skip = after ? 0 : offset;
  const wanted = skip + limit + 1;
  const { items } = await readMerged({ ranges, orderOf: (item) => item.gsi1sk as string, descending: options.descending }, wanted, wanted);
  const page = items.slice(skip, skip + limit);
  const last = page.at(-1);
  return {
    ideaIds: page.map((item) => (item.gsi1sk as string).slice((item.gsi1sk as string).indexOf('#') + 1)),
    hasMore: items.length > skip + limit,
    lastKey: last ? { gsi1sk: last.gsi1sk as string } : undefined,
  };
}
