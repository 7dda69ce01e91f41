/**
 * The items of votes, their counts and the ideas' ranks (lib/platform/data/entity.ts), under the
 * workspace's partition. Machines write votes (an integration votes on behalf of its customers, a
 * viral idea takes thousands a second), so none of these keys takes every write at the end of one
 * range (docs/costs.md, "Scale"):
 *
 *   IDEAVOTE#<ideaId>#<voteId>        a vote: one per (idea, voter), the vote id a hash of the two
 *                                     (lib/ideas/people.ts), so new votes land all over the range
 *   IDEAVOTECOUNT#<ideaId>#<nn>       the idea's count, in VOTE_SHARDS items a vote chooses by its id's
 *                                     hash (lib/ideas/vote-count.ts); a Query of the prefix sums them
 *   IDEARANK#<spread>#<ideaId>#VOTES|TREND
 *                                     the idea's place in the lists by votes and by trending: gsi1
 *                                     entries under `WS#<ws>#IDEARANK#VOTES|TREND` (`…#MERGED` for an idea
 *                                     merged into another), sorted by the rank the table stream's fold
 *                                     writes once per batch of votes. The VOTES item is also the idea's
 *                                     gate: a vote reads it (small, so half a read unit) to learn whether
 *                                     the idea exists and is merged, and a merge records on it the votes
 *                                     it still has to move. `<spread>` is the random end of the idea's
 *                                     UUIDv7: keyed by the id alone, every new idea's two rank items were
 *                                     written at the end of one range (ids sort by time), which capped
 *                                     creates at 250 a second (docs/costs.md, "People: submitting ideas").
 *
 * A vote's gsi1 entry is its voter's: `WS#<ws>#PERSON#<voterRef>` / `IDEAVOTE#<ideaId>`, which the erasure
 * of a person reads (one key per person, so no index key is hot either).
 */
import { defineEntity } from '../platform/data/entity.ts';
import { keys } from '../platform/data/keys.ts';

const pk = keys.workspacePk;
const shardText = (shard: number) => String(shard).padStart(2, '0');

export const voteEntity = defineEntity({
  name: 'IdeaVote',
  keys: {
    vote: (workspace: string, ideaId: string, voteId: string) => ({ pk: pk(workspace), sk: `IDEAVOTE#${ideaId}#${voteId}` }),
    /** Inclusive bounds of an idea's votes ('~' sorts after every id character). */
    range: (ideaId: string) => ({ from: `IDEAVOTE#${ideaId}#`, to: `IDEAVOTE#${ideaId}#~` }),
  },
  keyOf: (item) => ({ pk: pk(item.workspace as string), sk: `IDEAVOTE#${item.ideaId as string}#${item.id as string}` }),
});

export const voteCountEntity = defineEntity({
  name: 'IdeaVoteCount',
  keys: {
    shard: (workspace: string, ideaId: string, shard: number) => ({ pk: pk(workspace), sk: `IDEAVOTECOUNT#${ideaId}#${shardText(shard)}` }),
    prefix: (ideaId: string) => `IDEAVOTECOUNT#${ideaId}#`,
    /** Inclusive bounds of the shards of every idea from `fromId` to `toId` (ids sort as the ideas do). */
    between: (fromId: string, toId: string) => ({ from: `IDEAVOTECOUNT#${fromId}#`, to: `IDEAVOTECOUNT#${toId}#~` }),
    ideaIdOf: (sk: string) => sk.slice('IDEAVOTECOUNT#'.length, sk.lastIndexOf('#')),
  },
});

export type RankKind = 'VOTES' | 'TREND';

export const rankEntity = defineEntity({
  name: 'IdeaRank',
  keys: {
    rank: (workspace: string, ideaId: string, kind: RankKind) => ({
      pk: pk(workspace),
      sk: `IDEARANK#${ideaId.slice(-12)}#${ideaId}#${kind}`,
    }),
    /** The index partition a list by votes or trending reads; ideas merged into another are listed apart. */
    listing: (workspace: string, kind: RankKind, merged: boolean) => `WS#${workspace}#IDEARANK#${kind}${merged ? '#MERGED' : ''}`,
    sortKey: (rank: string, ideaId: string) => `${rank}#${ideaId}`,
  },
});

/** The erasure of a person reads their votes and comments here. */
export const personListing = (workspace: string, personRef: string) => `WS#${workspace}#PERSON#${personRef}`;

export const VOTE_ENTITIES = [voteEntity, voteCountEntity, rankEntity] as const;
