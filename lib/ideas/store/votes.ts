/**
 * Access patterns of votes (vote-entities.ts, vote-record.ts). A vote is one transaction of two items,
 * its own and one count shard, plus the remembered response under an Idempotency-Key:
 *   vote     TransactWrite: the vote Put if absent, its shard's ADDs if the idea is not closed; when the
 *            voter already voted (the Put's condition hands back their vote), the vote's Update at the
 *            version it was read at instead, with the shard's importance moves: 10 racing requests of
 *            one voter make one Put and nine Updates, so the voter counts once
 *   read     GetItem (consistent)
 *   list     the idea's vote range, one Query page (a vote key sorts by its hash, so the order is
 *            stable, not by time), beside the shards that give its total
 *   delete   TransactWrite: the vote at its version and its shard's ADDs, and for a vote that also came
 *            from merged ideas, their votes and shards too, each fenced by its idea's gate
 */
import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { conflictBackoff, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { type CountedList, walkCountedList } from '../../platform/data/list-walk.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { ideaMerged, mergeInProgress } from '../errors.ts';
import { voteIdOf } from '../people.ts';
import { type CountedVote, type Importance, shardDeltas } from '../vote-count.ts';
import { voteEntity } from '../vote-entities.ts';
import { type StoredVote, storedVoteOf, toVote, voteItem } from '../vote-record.ts';
import type { Vote } from '../vote-schemas.ts';
import { gateKey, gateOf, type VoteGate } from './ranks.ts';
import { readVoteCounts, shardWrite } from './vote-counts.ts';

type Item = Record<string, unknown>;

/**
 * How often a vote is tried again when its voter's other requests keep changing it in between. Each
 * lost try means one of them was written, so n racing requests of one voter need at most n tries;
 * the tries wait a jittered moment (conflictBackoff) so that the losers do not meet again at once.
 * Ten at once, as a client retrying on a timer may send, once took more than six.
 */
const VOTE_ATTEMPTS = 12;

export const countedOf = (vote: Pick<StoredVote, 'importance' | 'createdAt'>): CountedVote => ({
  importance: vote.importance,
  createdAt: vote.createdAt,
});

/** What the response of a vote remembers under an Idempotency-Key: the vote, and whether it was new. */
export interface VoteAnswer {
  vote: Vote;
  created: boolean;
}

/**
 * Cast (or change) the voter's vote on the idea. Throws 409 `idea_merged` when the idea's shards say
 * it was merged (whatever the gate the caller read said).
 */
export async function voteOnIdea(
  workspace: string,
  ideaId: string,
  voterRef: string,
  wish: { importance: Importance | undefined; note: string | null | undefined },
  idempotency: IdempotentRequest | undefined,
): Promise<{ answer: VoteAnswer; replayed: boolean }> {
  const voteId = voteIdOf(ideaId, voterRef);
  let current: StoredVote | null = null;
  for (let attempt = 1; ; attempt++) {
    const now = new Date().toISOString();
    const next: StoredVote = current
      ? {
          ...current,
          importance: wish.importance ?? current.importance,
          note: wish.note === undefined ? current.note : wish.note,
          direct: true,
          version: current.version + 1,
          updatedAt: now,
        }
      : {
          id: voteId,
          ideaId,
          voterRef,
          importance: wish.importance ?? 'nice',
          note: wish.note ?? null,
          direct: true,
          mergedFrom: [],
          version: 1,
          createdAt: now,
          updatedAt: now,
        };
    const writes = {
      vote: current ? voteChange(workspace, current, next) : votePut(workspace, next),
      shard: shardWrite(workspace, ideaId, voteId, shardDeltas(current && countedOf(current), countedOf(next))),
    };
    try {
      const { response, replayed } = await createOnce(workspace, writes, { vote: toVote(next), created: !current }, idempotency);
      return { answer: response, replayed };
    } catch (error) {
      if (!(error instanceof TransactionCancelledError)) throw error;
      if (error.failed('shard')) throw ideaMerged(String(error.current('shard')?.closed));
      if (!error.failed('vote') || attempt >= VOTE_ATTEMPTS) {
        if (error.failed('vote') && current) throw new VersionConflictError(current.version);
        throw error;
      }
      const seen = error.current('vote');
      current = seen ? storedVoteOf(seen) : null;
      await conflictBackoff(attempt);
    }
  }
}

function votePut(workspace: string, vote: StoredVote): TransactWrite {
  return { Put: { TableName: tableName, Item: voteItem(workspace, vote), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** The voter's vote again: cast on this idea now (`direct`), its importance and note as wished, at the version read. */
function voteChange(workspace: string, current: StoredVote, next: StoredVote): TransactWrite {
  const changed = update()
    .set('importance', next.importance)
    .set('direct', true)
    .set('updatedAt', next.updatedAt)
    .set('version', next.version);
  if (next.note === null) changed.remove('note');
  else changed.set('note', next.note);
  return {
    Update: {
      TableName: tableName,
      Key: voteEntity.keys.vote(workspace, current.ideaId, current.id),
      ...changed.build({ expression: 'version = :read', values: { ':read': current.version } }),
    },
  };
}

/** A vote and its idea's gate, in one round trip (consistent). */
export async function findVoteAndGate(
  workspace: string,
  ideaId: string,
  voteId: string,
): Promise<{ vote: StoredVote | null; gate: VoteGate | null }> {
  const [vote, gate] = await getMany([voteEntity.keys.vote(workspace, ideaId, voteId), gateKey(workspace, ideaId)]);
  return { vote: vote ? storedVoteOf(vote) : null, gate: gateOf(gate) };
}

export interface VotePage {
  votes: Vote[];
  total: number;
  hasMore: boolean;
  lastKey: PageKey | undefined;
  returned: number;
}

/** One page of the idea's votes (each one that counts), and their total: the idea's vote count. */
export async function listVotes(workspace: string, ideaId: string, page: PageStart): Promise<VotePage> {
  const { from, to } = voteEntity.keys.range(ideaId);
  const list: CountedList = {
    query: {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':from': from, ':to': to },
      ConsistentRead: true,
    },
    countersApart: true,
    isCounter: () => false,
    totalOf: ([counts]) => (counts?.voteCount as number | undefined) ?? 0,
    readCounters: async () => [{ voteCount: (await readVoteCounts(workspace, ideaId)).voteCount }],
    cursorInRange: (after) => after.pk === keys.workspacePk(workspace) && typeof after.sk === 'string' && after.sk.startsWith(from),
    keyOf: (item) => ({ pk: keys.workspacePk(workspace), sk: item.sk as string }),
  };
  const { items, ...rest } = await walkCountedList(list, page);
  return { votes: items.map((item) => toVote(storedVoteOf(item))), ...rest };
}

/** Votes by (idea, vote id), each with its idea's gate, consistent, in one round trip per 50. */
export async function findVotesAndGates(
  workspace: string,
  refs: readonly { ideaId: string; voteId: string }[],
): Promise<{ vote: StoredVote | null; gate: VoteGate | null }[]> {
  const items = await getMany(
    refs.flatMap(({ ideaId, voteId }) => [voteEntity.keys.vote(workspace, ideaId, voteId), gateKey(workspace, ideaId)]),
  );
  return refs.map((_, i) => {
    const [vote, gate] = [items[2 * i], items[2 * i + 1]];
    return { vote: vote ? storedVoteOf(vote) : null, gate: gateOf(gate) };
  });
}

/** The merged ideas a vote also came from: each one's own vote of the voter, and its gate. */
export interface SourceVote {
  ideaId: string;
  vote: StoredVote | null;
  gate: VoteGate | null;
}

/** The votes of the same voter on the ideas `vote` also came from, with their gates, in one round trip. */
export async function findSourceVotes(workspace: string, vote: StoredVote): Promise<SourceVote[]> {
  if (vote.mergedFrom.length === 0) return [];
  const items = await getMany(
    vote.mergedFrom.flatMap((source) => [
      voteEntity.keys.vote(workspace, source, voteIdOf(source, vote.voterRef)),
      gateKey(workspace, source),
    ]),
  );
  return vote.mergedFrom.map((ideaId, i) => {
    const [sourceVote, gate] = [items[2 * i], items[2 * i + 1]];
    return { ideaId, vote: sourceVote ? storedVoteOf(sourceVote) : null, gate: gateOf(gate) };
  });
}

/**
 * Withdraw a vote (at the version read, or the If-Match's), with the votes of the same voter on the
 * merged ideas it also came from, so an unmerge cannot bring them back. The target's shard refuses
 * when the idea was merged meanwhile (409); a source whose merge is still moving votes is a 409 too.
 */
export async function deleteVote(
  workspace: string,
  vote: StoredVote,
  sources: readonly SourceVote[],
  precondition: VersionPrecondition,
  options: { evenIfClosed?: boolean } = {},
): Promise<void> {
  if (precondition && !precondition.anyVersion && !precondition.versions.includes(vote.version))
    throw new VersionConflictError(vote.version);
  const writes: Record<string, TransactWrite> = {
    vote: voteDelete(workspace, vote),
    shard: shardWrite(workspace, vote.ideaId, vote.id, shardDeltas(countedOf(vote), null), options),
  };
  sources.forEach((source, i) => {
    writes[`gate${i}`] = {
      ConditionCheck: {
        TableName: tableName,
        Key: gateKey(workspace, source.ideaId),
        ConditionExpression: 'attribute_not_exists(mergeWork)',
      },
    };
    if (!source.vote) return;
    writes[`sourceVote${i}`] = voteDelete(workspace, source.vote);
    writes[`sourceShard${i}`] = shardWrite(workspace, source.ideaId, source.vote.id, shardDeltas(countedOf(source.vote), null), {
      evenIfClosed: true,
    });
  });
  try {
    await transact(writes);
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('shard')) throw ideaMerged(String(error.current('shard')?.closed));
    if (error.failedNames.some((name) => name.startsWith('gate'))) throw mergeInProgress();
    const current = error.current('vote');
    if (error.failed('vote')) throw new VersionConflictError(Number(current?.version ?? vote.version));
    // A source's vote changed in between (its voter's erasure): the caller reads again.
    throw error;
  }
}

/** The Delete of a vote at the version it was read at. */
function voteDelete(workspace: string, vote: StoredVote): TransactWrite {
  return {
    Delete: {
      TableName: tableName,
      Key: voteEntity.keys.vote(workspace, vote.ideaId, vote.id),
      ConditionExpression: 'version = :read',
      ExpressionAttributeValues: { ':read': vote.version },
    },
  };
}

/** The idea's votes, all of them (a merge or an unmerge reads its source's or target's whole range). */
export async function readAllVotes(workspace: string, ideaId: string): Promise<StoredVote[]> {
  const { from, to } = voteEntity.keys.range(ideaId);
  const items: Item[] = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':from': from, ':to': to },
    ConsistentRead: true,
  });
  return items.map(storedVoteOf);
}
