/**
 * The writes of a merge and of an unmerge (lib/ideas/merging.ts says what they decide):
 *   commit   one transaction: the source idea (at the If-Match version) and the target, the source's
 *            gate (the work to do, and a new generation) and ranks (to the merged listings, or back),
 *            the source's 32 count shards closed to votes (or opened), the workspace's merged count
 *   move     the votes: the source's (a merge) or the target's (an unmerge) read in one Query walk,
 *            then one transaction per shard of the target and at most 50 votes, 8 at a time: the votes'
 *            writes, the shard's ADDs, and a ConditionCheck of the source's gate at this generation, so
 *            a move that lost its turn (its work finished or undone meanwhile) writes nothing. Every write
 *            is conditional on the item as read: a vote cast meanwhile makes its transaction fail, and the
 *            batch is planned again from what the failure hands back. 10,000 votes are about 215
 *            transactions in 27 rounds (in a region, under a second).
 *   hand off a move the request could not finish in its time is handed to the table stream: one
 *            UpdateItem of the idea (`mergeHandoff`), whose record the ideas' fold moves the rest on
 *   finish   the gate's work cleared, at this generation
 * A move is idempotent (each write is planned from the item as it is), so a second mover (the
 * stream's, or the request sent again) finishes the same work.
 */
import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { counterAdd, TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { ideaCounterEntity, ideaEntity } from '../entities.ts';
import { MAX_MERGED_INTO_ONE } from '../errors.ts';
import { carryVote, type MergeWork, uncarryVote } from '../merging.ts';
import { voteIdOf } from '../people.ts';
import { shardDeltas, VOTE_SHARDS, voteShardOf } from '../vote-count.ts';
import { rankEntity, voteEntity } from '../vote-entities.ts';
import { type StoredVote, storedVoteOf, voteItem } from '../vote-record.ts';
import { gateKey, trendRankKey } from './ranks.ts';
import { everyShard, shardWrite } from './vote-counts.ts';
import { countedOf, readAllVotes } from './votes.ts';

type Item = Record<string, unknown>;

const VOTES_PER_TRANSACTION = 50;
const PARALLEL_TRANSACTIONS = 8;
/** Plans of one batch tried again after writes raced them, before the batch gives up (the mover is run again). */
const BATCH_ATTEMPTS = 8;

const ideaKey = (workspace: string, ideaId: string) => ideaEntity.keys.idea(workspace, ideaId);

/** What a commit found changed since the read: the caller reads again and asks the rules. */
export class MergeRaced extends Error {
  constructor(readonly failed: string[]) {
    super(`The merge's commit found ${failed.join(', ')} changed`);
  }
}

function commitWrites(
  workspace: string,
  source: string,
  target: string,
  kind: MergeWork,
  generation: number,
  precondition: VersionPrecondition,
): Record<string, TransactWrite | false> {
  const now = new Date().toISOString();
  const merging = kind === 'merge';
  const sourceChange = update().increment('version').set('updatedAt', now);
  if (merging) sourceChange.set('mergedInto', target);
  else sourceChange.remove('mergedInto');
  const ifMatch = versionCondition(precondition);
  const targetChange = update();
  if (merging) targetChange.add('mergedFrom', new Set([source]));
  else targetChange.deleteFromSet('mergedFrom', new Set([source]));
  const gate = update()
    .set('mergeWork', kind)
    .set('mergeGeneration', generation + 1)
    .set('gsi1pk', rankEntity.keys.listing(workspace, 'VOTES', merging));
  if (merging) gate.set('mergedInto', target).remove('mergeTarget');
  else gate.remove('mergedInto').set('mergeTarget', target);
  const writes: Record<string, TransactWrite | false> = {
    source: {
      Update: {
        TableName: tableName,
        Key: ideaKey(workspace, source),
        ...sourceChange.build({
          expression: merging
            ? `attribute_exists(pk) AND attribute_not_exists(mergedInto) AND attribute_not_exists(mergedFrom)${ifMatch.expression}`
            : `mergedInto = :target${ifMatch.expression}`,
          names: ifMatch.names,
          values: { ...ifMatch.values, ...(merging ? {} : { ':target': target }) },
        }),
      },
    },
    target: {
      Update: {
        TableName: tableName,
        Key: ideaKey(workspace, target),
        ...targetChange.build({
          expression: merging
            ? 'attribute_exists(pk) AND attribute_not_exists(mergedInto) AND (attribute_not_exists(mergedFrom) OR size(mergedFrom) < :most)'
            : 'attribute_exists(pk)',
          values: merging ? { ':most': MAX_MERGED_INTO_ONE } : {},
        }),
      },
    },
    gate: {
      Update: {
        TableName: tableName,
        Key: gateKey(workspace, source),
        ...gate.build({
          expression:
            'attribute_exists(pk) AND attribute_not_exists(mergeWork) AND (mergeGeneration = :generation OR (attribute_not_exists(mergeGeneration) AND :generation = :zero))',
          values: { ':generation': generation, ':zero': 0 },
        }),
      },
    },
    trend: {
      Update: {
        TableName: tableName,
        Key: trendRankKey(workspace, source),
        ...update()
          .set('gsi1pk', rankEntity.keys.listing(workspace, 'TREND', merging))
          .build({ expression: 'attribute_exists(pk)' }),
      },
    },
    counter: counterAdd(ideaCounterEntity.keys.counter(workspace), 'mergedCount', merging ? 1 : -1),
  };
  everyShard(workspace, source, VOTE_SHARDS).forEach((key, shard) => {
    const change = update().set('entity', 'IdeaVoteCount');
    if (merging) change.set('closed', target);
    else change.remove('closed');
    writes[`shard${shard}`] = { Update: { TableName: tableName, Key: key, ...change.build() } };
  });
  return writes;
}

/**
 * Commit a merge of `source` into `target` (or its unmerge), from the source's gate at `generation`.
 * Throws `MergeRaced` naming what no longer was as read.
 */
export async function commitMerge(
  workspace: string,
  kind: MergeWork,
  source: string,
  target: string,
  generation: number,
  precondition: VersionPrecondition,
): Promise<void> {
  try {
    await transact(commitWrites(workspace, source, target, kind, generation, precondition));
  } catch (error) {
    if (error instanceof TransactionCancelledError) throw new MergeRaced(error.failedNames);
    throw error;
  }
}

/** The gate's work cleared, if it is still this generation's (a second mover finds it done). */
export async function finishMergeWork(workspace: string, source: string, kind: MergeWork, generation: number): Promise<void> {
  try {
    await transact({
      gate: {
        Update: {
          TableName: tableName,
          Key: gateKey(workspace, source),
          ...update()
            .remove('mergeWork')
            .remove('mergeTarget')
            .build({
              expression: 'mergeWork = :kind AND mergeGeneration = :generation',
              values: { ':kind': kind, ':generation': generation },
            }),
        },
      },
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
  }
}

/** How a move ended: all moved, the work no longer this mover's (its fence failed), or stopped at its deadline. */
export type MoveOutcome = 'moved' | 'fenced' | 'unfinished';

/**
 * Move the votes of a merge (`merge`: each voter of the source onto the target) or of an unmerge (the
 * source out of the target's votes), fenced by the source's gate at `generation`. With a `deadline`
 * (epoch ms), no batch starts after it.
 */
export async function moveVotes(
  workspace: string,
  kind: MergeWork,
  source: string,
  target: string,
  generation: number,
  deadline = Number.POSITIVE_INFINITY,
): Promise<MoveOutcome> {
  const fence: TransactWrite = {
    ConditionCheck: {
      TableName: tableName,
      Key: gateKey(workspace, source),
      ConditionExpression: 'mergeWork = :kind AND mergeGeneration = :generation',
      ExpressionAttributeValues: { ':kind': kind, ':generation': generation },
    },
  };
  // What each target vote must become, by its key: planned once from the votes read, again from what a failure hands back.
  const wanted =
    kind === 'merge'
      ? (await readAllVotes(workspace, source)).map((vote) => ({ voteId: voteIdOf(target, vote.voterRef), from: vote }))
      : (await readAllVotes(workspace, target))
          .filter((vote) => vote.mergedFrom.includes(source))
          .map((vote) => ({ voteId: vote.id, from: vote }));
  const byShard = new Map<number, typeof wanted>();
  for (const entry of wanted) byShard.set(voteShardOf(entry.voteId), [...(byShard.get(voteShardOf(entry.voteId)) ?? []), entry]);
  const batches = [...byShard.values()].flatMap((entries) =>
    Array.from({ length: Math.ceil(entries.length / VOTES_PER_TRANSACTION) }, (_, i) =>
      entries.slice(i * VOTES_PER_TRANSACTION, (i + 1) * VOTES_PER_TRANSACTION),
    ),
  );
  let fenced = false;
  const runBatch = async (entries: typeof wanted) => {
    // The target's vote as last seen, by vote id: from the merge's read (absent) or the unmerge's, then from failures.
    const seen = new Map<string, StoredVote | null>(entries.map(({ voteId, from }) => [voteId, kind === 'merge' ? null : from]));
    if (kind === 'merge') {
      const current = await getMany(entries.map(({ voteId }) => voteEntity.keys.vote(workspace, target, voteId)));
      current.forEach((item, i) => {
        seen.set((entries[i] as (typeof entries)[number]).voteId, item ? storedVoteOf(item) : null);
      });
    }
    for (let attempt = 1; attempt <= BATCH_ATTEMPTS && !fenced; attempt++) {
      const writes: Record<string, TransactWrite> = { fence };
      const deltas: Record<string, number>[] = [];
      entries.forEach(({ voteId, from }, i) => {
        const planned = plan(workspace, kind, source, target, voteId, from, seen.get(voteId) ?? null);
        if (!planned) return;
        writes[`v${i}`] = planned.write;
        if (planned.delta) deltas.push(planned.delta);
      });
      if (Object.keys(writes).length === 1) return;
      const shardDelta: Record<string, number> = {};
      for (const delta of deltas) for (const [name, by] of Object.entries(delta)) shardDelta[name] = (shardDelta[name] ?? 0) + by;
      if (Object.keys(shardDelta).length > 0) {
        shardDelta.seq = 1;
        writes.shard = shardWrite(workspace, target, (entries[0] as (typeof entries)[number]).voteId, shardDelta, { evenIfClosed: true });
      }
      try {
        await transact(writes);
        return;
      } catch (error) {
        if (!(error instanceof TransactionCancelledError)) throw error;
        if (error.failed('fence')) {
          fenced = true;
          return;
        }
        entries.forEach(({ voteId }, i) => {
          if (!error.failed(`v${i}`)) return;
          const current = error.current(`v${i}`);
          seen.set(voteId, current ? storedVoteOf(current) : null);
        });
      }
    }
    if (!fenced) throw new Error(`Votes of ${kind} ${source} → ${target} kept racing other writes; run the move again`);
  };
  for (let i = 0; i < batches.length && !fenced; i += PARALLEL_TRANSACTIONS) {
    if (Date.now() > deadline) return 'unfinished';
    await Promise.all(batches.slice(i, i + PARALLEL_TRANSACTIONS).map(runBatch));
  }
  return fenced ? 'fenced' : 'moved';
}

/** The move of this generation handed to the table stream (commands/fold-idea-changes.ts picks it up from the idea's record). */
export async function handOffMergeWork(workspace: string, source: string, generation: number): Promise<void> {
  await updateItem({
    TableName: tableName,
    Key: ideaEntity.keys.idea(workspace, source),
    ...update().set('mergeHandoff', generation).build({ expression: 'attribute_exists(pk)' }),
  });
}

/** A change of a target vote's `mergedFrom` alone: the voter keeps counting as before, so no shard moves. */
function mergedFromOnly(
  key: Record<string, string>,
  change: ReturnType<typeof update>,
  expression: string,
  values?: Record<string, unknown>,
): { write: TransactWrite; delta: null } {
  return { write: { Update: { TableName: tableName, Key: key, ...change.build({ expression, values }) } }, delta: null };
}

/**
 * The write one target vote needs, from the target's vote as seen (null: none), and its shard's ADDs
 * when the voter starts or stops counting; null when nothing is to be written.
 */
function plan(
  workspace: string,
  kind: MergeWork,
  source: string,
  target: string,
  voteId: string,
  from: StoredVote,
  seen: StoredVote | null,
): { write: TransactWrite; delta: Record<string, number> | null } | null {
  const key = voteEntity.keys.vote(workspace, target, voteId);
  if (kind === 'merge') {
    const write = carryVote(seen, source);
    if (write === 'none') return null;
    if (write === 'add') return mergedFromOnly(key, update().add('mergedFrom', new Set([source])), 'attribute_exists(pk)');
    const carried: StoredVote = {
      id: voteId,
      ideaId: target,
      voterRef: from.voterRef,
      importance: from.importance,
      note: from.note,
      direct: false,
      mergedFrom: [source],
      version: 1,
      createdAt: from.createdAt,
      updatedAt: new Date().toISOString(),
    };
    return {
      write: { Put: { TableName: tableName, Item: voteItem(workspace, carried), ConditionExpression: 'attribute_not_exists(pk)' } },
      delta: withoutSeq(shardDeltas(null, countedOf(carried))),
    };
  }
  if (!seen) return null;
  const write = uncarryVote(seen, source);
  if (write === 'none') return null;
  if (write === 'remove') {
    return mergedFromOnly(key, update().deleteFromSet('mergedFrom', new Set([source])), 'contains(mergedFrom, :source)', {
      ':source': source,
    });
  }
  return {
    write: {
      Delete: {
        TableName: tableName,
        Key: key,
        // Exactly as read: not cast on the target, from this source alone.
        ConditionExpression: 'version = :read AND direct = :false AND size(mergedFrom) = :one AND contains(mergedFrom, :source)',
        ExpressionAttributeValues: { ':read': seen.version, ':false': false, ':one': 1, ':source': source },
      },
    },
    delta: withoutSeq(shardDeltas(countedOf(seen), null)),
  };
}

function withoutSeq(deltas: Record<string, number>): Record<string, number> {
  const { seq: _, ...rest } = deltas;
  return rest;
}

/** The items a merge's commit read: the two ideas and the source's gate (consistent, one round trip). */
export async function readMergeSides(workspace: string, source: string, target: string | null): Promise<(Item | undefined)[]> {
  return getMany([ideaKey(workspace, source), gateKey(workspace, source), ...(target ? [ideaKey(workspace, target)] : [])], {
    attributes: ['id', 'version', 'mergedInto', 'mergedFrom', 'mergeWork', 'mergeGeneration', 'mergeTarget'],
  });
}

/** The ideas merged into this one (null: no such idea), read consistently. */
export async function findMergeSources(workspace: string, ideaId: string): Promise<string[] | null> {
  const [idea] = await getMany([ideaKey(workspace, ideaId)], { attributes: ['mergedFrom'] });
  if (!idea) return null;
  return idea.mergedFrom instanceof Set ? [...(idea.mergedFrom as Set<string>)].sort() : [];
}
