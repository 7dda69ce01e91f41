/**
 * The capacity model's workload of votes (issue 39): one viral idea voted for by distinct customers,
 * through an integration's keys. Its target is 2,000 votes a second on the one idea: what the vote
 * keys are designed for (lib/ideas/vote-count.ts): a vote item per (idea, voter), keyed by a hash, and
 * its count on one of 32 shards chosen by the same hash, summed on read; the index the lists sort by
 * is written by the table stream's fold, once per batch, not once per vote.
 */
import { VOTE_SHARDS } from '../lib/ideas/vote-count.ts';
import { newCaller, type Workload } from './capacity-workloads.ts';

const VOTES = 200;

export const voteWorkload: Workload = {
  id: 'idea-votes',
  title: 'One viral idea: votes on behalf of customers',
  call: 'POST /ideas/{id}/votes by a new voter (an e-mail, an importance, no note)',
  target: 2_000,
  copies: () => new Map([['table WS#<ws> IDEAVOTECOUNT#<ideaId>#<shard>', VOTE_SHARDS]]),
  async setup(sandbox) {
    const caller = await newCaller(sandbox, 'votes');
    const { data: idea } = await caller.settingUp<{ data: { id: string } }>('POST', '/ideas', 201, {
      title: 'Offline mode',
      description: 'Use the app without a connection, and sync when back online.',
      status: 'new',
      module: 'general',
    });
    const path = `/ideas/${idea.id}/votes`;
    const importance = (i: number) => (['nice', 'important', 'critical'] as const)[i % 3];
    // Warm instances, and the shards made: the burst meets an idea already voted for.
    for (let i = 0; i < 40; i++) {
      await caller.settingUp('POST', path, 201, { voter: { email: `early-${i}@example.com` }, importance: importance(i) });
    }
    return {
      names: new Map([
        [caller.slug, 'ws'],
        [idea.id, 'ideaId'],
      ]),
      async run() {
        for (let i = 0; i < VOTES; i++) {
          await caller.json('POST', path, 201, { voter: { email: `customer-${i}@example.com` }, importance: importance(i) });
        }
        return VOTES;
      },
    };
  },
};
