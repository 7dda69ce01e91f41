/** The pure rules of votes: trending's order, the sharded count's arithmetic, and what a merge writes and an unmerge undoes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  carryVote,
  deleteRefusal,
  type MergeState,
  mergeRefusal,
  type TargetVote,
  uncarryVote,
  unmergeRefusal,
} from '../../lib/ideas/merging.ts';
import { voteIdOf } from '../../lib/ideas/people.ts';
import { ideaPatch } from '../../lib/ideas/schemas.ts';
import {
  rankOfTrend,
  rankOfVotes,
  trendAttributeOf,
  trendLogOf,
  trendScoreAt,
  trendSums,
  trendWeightOf,
} from '../../lib/ideas/trending.ts';
import { type CountedVote, shardDeltas, sumShards, VOTE_SHARDS, voteShardOf } from '../../lib/ideas/vote-count.ts';

const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();
const NOW = Date.parse('2026-11-29T12:00:00.000Z');

/** The shard items a list of votes leaves, as the transactions' ADDs make them. */
function shardsOf(votes: CountedVote[]): Record<string, unknown>[] {
  const shards = new Map<number, Record<string, number>>();
  votes.forEach((vote, i) => {
    const shard = voteShardOf(`vote-${i}`);
    const item = shards.get(shard) ?? {};
    for (const [name, by] of Object.entries(shardDeltas(null, vote))) item[name] = (item[name] ?? 0) + by;
    shards.set(shard, item);
  });
  return [...shards.values()];
}

/** The trending score by its definition: each vote weighs 2^(−age / 7 days). */
const scoreByDefinition = (castAts: number[], now: number) => castAts.reduce((sum, cast) => sum + 2 ** (-(now - cast) / (7 * DAY)), 0);

describe('trending', () => {
  it('weighs a vote 1 when cast, ½ a week later and ¼ after two', () => {
    const log = trendLogOf(trendSums(shardsOf([{ importance: 'nice', createdAt: at(NOW) }])));
    expect(trendScoreAt(log, NOW)).toBeCloseTo(1, 3);
    expect(trendScoreAt(log, NOW + 7 * DAY)).toBeCloseTo(0.5, 3);
    expect(trendScoreAt(log, NOW + 14 * DAY)).toBeCloseTo(0.25, 3);
  });

  it('is the sum of the decayed weights, across periods, whatever the ages', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 * DAY }), { minLength: 1, maxLength: 40 }), (ages) => {
        const casts = ages.map((age) => NOW - age);
        const log = trendLogOf(trendSums(shardsOf(casts.map((cast) => ({ importance: 'nice', createdAt: at(cast) })))));
        const expected = scoreByDefinition(casts, NOW);
        // Weights are kept in thousandths of their period's unit: a relative error under 0.1 %.
        expect(Math.abs(trendScoreAt(log, NOW) - expected) / expected).toBeLessThan(1e-3);
      }),
    );
  });

  it('orders ideas by their score at any later time without being rewritten', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 120 * DAY }), { minLength: 1, maxLength: 15 }),
        fc.array(fc.integer({ min: 0, max: 120 * DAY }), { minLength: 1, maxLength: 15 }),
        fc.integer({ min: 0, max: 365 * DAY }),
        (a, b, later) => {
          const rank = (ages: number[]) =>
            rankOfTrend(trendLogOf(trendSums(shardsOf(ages.map((age) => ({ importance: 'nice', createdAt: at(NOW - age) }))))));
          const scoreA = scoreByDefinition(
            a.map((age) => NOW - age),
            NOW + later,
          );
          const scoreB = scoreByDefinition(
            b.map((age) => NOW - age),
            NOW + later,
          );
          if (Math.abs(scoreA - scoreB) / Math.max(scoreA, scoreB) < 0.01) return; // a near tie: rounding may order it either way
          expect(rank(a) > rank(b)).toBe(scoreA > scoreB);
        },
      ),
    );
  });

  it('sorts an idea without votes below every idea with one, and keys of one width', () => {
    const none = rankOfTrend(null);
    const oldVote = rankOfTrend(trendLogOf(trendSums(shardsOf([{ importance: 'nice', createdAt: '2019-01-01T00:00:00.000Z' }]))));
    expect(none < oldVote).toBe(true);
    expect(none).toHaveLength(oldVote.length);
    expect(rankOfVotes(7) < rankOfVotes(12)).toBe(true);
  });

  it('gives one instant the same integer weight every time, so a removal cancels its vote exactly', () => {
    const cast = at(NOW - 3 * DAY);
    expect(Number.isInteger(trendWeightOf(cast))).toBe(true);
    const deltas = [
      shardDeltas(null, { importance: 'critical', createdAt: cast }),
      shardDeltas({ importance: 'critical', createdAt: cast }, null),
    ];
    const summed: Record<string, number> = {};
    for (const delta of deltas) for (const [name, by] of Object.entries(delta)) summed[name] = (summed[name] ?? 0) + by;
    expect(summed).toEqual({ seq: 2, votes: 0, critical: 0, [trendAttributeOf(cast)]: 0 });
  });
});

describe('the sharded vote count', () => {
  it('sums to the votes and importances cast, and seq only grows', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('nice', 'important', 'critical'), { maxLength: 200 }), (importances) => {
        const sums = sumShards(shardsOf(importances.map((importance) => ({ importance, createdAt: at(NOW) }))));
        expect(sums.voteCount).toBe(importances.length);
        expect(sums.importance.critical).toBe(importances.filter((i) => i === 'critical').length);
        expect(sums.seq).toBe(importances.length);
      }),
    );
  });

  it('changes only the importance counts when a voter changes their mind', () => {
    const cast = at(NOW);
    expect(shardDeltas({ importance: 'nice', createdAt: cast }, { importance: 'critical', createdAt: cast })).toEqual({
      seq: 1,
      nice: -1,
      critical: 1,
    });
  });

  it('spreads votes evenly over the shards', () => {
    const counts = new Array(VOTE_SHARDS).fill(0);
    for (let i = 0; i < 32_000; i++) counts[voteShardOf(voteIdOf('idea', `voter-${i}`))]++;
    // 1,000 expected per shard; a uniform hash stays within 15 % of it.
    expect(Math.min(...counts)).toBeGreaterThan(850);
    expect(Math.max(...counts)).toBeLessThan(1150);
  });

  it('gives one voter one vote id per idea and unrelated ids on two ideas', () => {
    expect(voteIdOf('a', 'ref')).toBe(voteIdOf('a', 'ref'));
    expect(voteIdOf('a', 'ref')).not.toBe(voteIdOf('b', 'ref'));
    expect(voteIdOf('a', 'ref')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

const idea = (id: string, state: Partial<MergeState> = {}): MergeState => ({
  id,
  mergedInto: null,
  mergedFrom: [],
  mergeWork: null,
  ...state,
});
const codeOf = (error: Error | null) => (error as { code?: string } | null)?.code ?? null;

describe('merging', () => {
  it('merges an idea into another that is not merged', () => {
    expect(mergeRefusal(idea('a'), idea('b', { mergedFrom: ['c'] }))).toBeNull();
  });

  it('never makes a chain, and refuses a merged target, a busy source or a full target', () => {
    expect(codeOf(mergeRefusal(idea('a'), idea('b', { mergedInto: 'c' })))).toBe('idea_merged');
    expect(codeOf(mergeRefusal(idea('a', { mergedInto: 'c' }), idea('b')))).toBe('idea_merged');
    expect(codeOf(mergeRefusal(idea('a', { mergedFrom: ['c'] }), idea('b')))).toBe('idea_has_merged_ideas');
    expect(codeOf(mergeRefusal(idea('a', { mergeWork: 'unmerge' }), idea('b')))).toBe('merge_in_progress');
    expect(codeOf(mergeRefusal(idea('a'), idea('b', { mergedFrom: Array.from({ length: 25 }, (_, i) => `x${i}`) })))).toBe(
      'merge_limit_reached',
    );
    expect(codeOf(mergeRefusal(idea('a'), null))).toBe('merge_target_not_found');
    expect(codeOf(mergeRefusal(null, idea('b')))).toBe('not_found');
  });

  it('unmerges only a merged idea whose votes have finished moving', () => {
    expect(unmergeRefusal(idea('a', { mergedInto: 'b' }))).toBeNull();
    expect(codeOf(unmergeRefusal(idea('a')))).toBe('idea_not_merged');
    expect(codeOf(unmergeRefusal(idea('a', { mergedInto: 'b', mergeWork: 'merge' })))).toBe('merge_in_progress');
  });

  it('keeps an idea in a merge from being deleted', () => {
    expect(codeOf(deleteRefusal(idea('a', { mergedInto: 'b' })))).toBe('idea_merged');
    expect(codeOf(deleteRefusal(idea('b', { mergedFrom: ['a'] })))).toBe('idea_has_merged_ideas');
    expect(deleteRefusal(idea('c'))).toBeNull();
  });

  /**
   * A model of one target's voters: a merge then an unmerge of any sources, with direct votes cast on the
   * target at any point in between, leaves exactly the direct voters and the voters of the sources still merged.
   */
  it('undoes a merge exactly, keeping the votes cast on the target meanwhile', () => {
    const voter = fc.integer({ min: 0, max: 12 });
    fc.assert(
      fc.property(
        fc.array(voter, { maxLength: 12 }),
        fc.array(fc.array(voter, { maxLength: 12 }), { minLength: 1, maxLength: 3 }),
        fc.array(voter, { maxLength: 6 }),
        fc.nat(2),
        (directBefore, sources, directDuring, unmerged) => {
          const target = new Map<number, TargetVote>();
          const castOnTarget = (v: number) => target.set(v, { direct: true, mergedFrom: target.get(v)?.mergedFrom ?? [] });
          directBefore.forEach(castOnTarget);
          sources.forEach((voters, s) => {
            for (const v of new Set(voters)) {
              const write = carryVote(target.get(v) ?? null, `s${s}`);
              const known = target.get(v);
              if (write === 'put') target.set(v, { direct: false, mergedFrom: [`s${s}`] });
              if (write === 'add' && known) target.set(v, { ...known, mergedFrom: [...known.mergedFrom, `s${s}`] });
            }
          });
          directDuring.forEach(castOnTarget);
          const out = unmerged % sources.length;
          for (const [v, vote] of [...target]) {
            const write = uncarryVote(vote, `s${out}`);
            if (write === 'delete') target.delete(v);
            if (write === 'remove') target.set(v, { ...vote, mergedFrom: vote.mergedFrom.filter((s) => s !== `s${out}`) });
          }
          const expected = new Set([...directBefore, ...directDuring, ...sources.filter((_, s) => s !== out).flat()]);
          expect(new Set(target.keys())).toEqual(expected);
          expect([...target.values()].every((vote) => !vote.mergedFrom.includes(`s${out}`))).toBe(true);
        },
      ),
    );
  });
});

describe('statusMessage', () => {
  it('is sent with a status only', () => {
    expect(ideaPatch.safeParse({ status: 'done', statusMessage: 'Shipped in 4.2' }).success).toBe(true);
    const alone = ideaPatch.safeParse({ statusMessage: 'Shipped' });
    expect(alone.success).toBe(false);
    expect(alone.error?.issues[0]?.path).toEqual(['statusMessage']);
  });
});
