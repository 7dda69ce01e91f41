/**
 * A webhook's `maxDeliveriesPerSecond`, held across every concurrent consumer of the delivery queue
 * (and a recovery): the arithmetic of the budget; store/rate-slots.ts keeps it in DynamoDB.
 *
 * The budget is counted per clock second in slot items, one per (webhook, shard, second). An attempt
 * takes a slot with one unconditional `ADD taken 1` that returns the new count: at most the shard's
 * share of the rate go out in a second; the others learn from the count how many are waiting before
 * them, and come back when their turn should come (`throttled`, never a failure). An unconditional ADD
 * never fails a condition, so a full second costs the same one write unit per try as a free one.
 *
 * Why shards: one item lives in one partition, which takes at most 1,000 write units a second, and a
 * slot is written by every try of its second, those that get through and those sent back. So the
 * budget is split over `shardsFor(rate)` slot items a second, each granting at most
 * SHARD_GRANTS_PER_SECOND: at 1,000 a second, 4 items each granting 250, and with as many tries sent
 * back as let through, 500 write units a second each: half a partition. Each shard's slots of
 * successive seconds are a key range written in order (its end is one partition), so the shards are
 * separate ranges (`WHRATE#<webhookId>#<shard>#<second>`), not one, and docs/costs.md's capacity model
 * holds the workload to its target. A try picks its shard at random: the shares add up to the rate,
 * so the webhook never gets more; at high rates an unlucky spread may leave a little of a second unused.
 */

export const MIN_DELIVERIES_PER_SECOND = 1;
export const MAX_DELIVERIES_PER_SECOND = 1000;
/** The most one slot item grants in a second: a quarter of a partition's write units, leaving room for the tries it sends back. */
export const SHARD_GRANTS_PER_SECOND = 250;

/** How many slot items a second of this rate is split over. */
export const shardsFor = (rate: number) => Math.ceil(rate / SHARD_GRANTS_PER_SECOND);

/** What one shard grants in a second: the rate split as evenly as whole numbers allow. */
export function shareOf(rate: number, shard: number): number {
  const shards = shardsFor(rate);
  return Math.floor(rate / shards) + (shard < rate % shards ? 1 : 0);
}

/** The clock second a time falls in, as slot keys name it. */
export const secondOf = (ms: number) => Math.floor(ms / 1000);

/**
 * What the count a try got back means: go now, or come back when the tries before it should have had
 * their turn (the `excess` before it, at the shard's share a second), at a random moment of that
 * second so the ones sent back together do not all come back at once.
 */
export function verdictOf(
  rate: number,
  shard: number,
  second: number,
  taken: number,
  random: () => number = Math.random,
): { go: true } | { go: false; retryAtMs: number } {
  const share = shareOf(rate, shard);
  if (taken <= share) return { go: true };
  const secondsAhead = Math.ceil((taken - share) / share);
  return { go: false, retryAtMs: (second + secondsAhead) * 1000 + Math.floor(random() * 1000) };
}
