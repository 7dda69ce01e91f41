/**
 * The aggregation's one promise: whatever the stream delivers (every record at least once, in any
 * order, in any batches, duplicated or replayed), the day buckets equal a recount of the responses
 * as finally stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../lib/surveys/summary/catalog.ts';
import { addCounts, type CountedResponse, type Counts, contributionOf } from '../../lib/surveys/summary/counts.ts';
import { bucketId, type CountedMarker, foldChanges, type ResponseChange } from '../../lib/surveys/summary/fold.ts';

const CATALOG: Catalog = {
  nps: { type: 'nps', position: 0, numeric: true, scale: { min: 0, max: 10 } },
  plan: { type: 'singleChoice', position: 1, numeric: false, options: ['basic', 'pro'] },
  tools: { type: 'multipleChoice', position: 2, numeric: false, options: ['a', 'b', 'c'] },
  note: { type: 'openText', position: 3, numeric: false },
};
const QUESTION_IDS = Object.keys(CATALOG);

const revisionArb: fc.Arbitrary<CountedResponse> = fc.record({
  status: fc.constantFrom('partial' as const, 'finished' as const),
  path: fc.subarray(QUESTION_IDS),
  answers: fc.record(
    {
      nps: fc.integer({ min: 0, max: 10 }),
      plan: fc.constantFrom('basic', 'pro'),
      tools: fc.subarray(['a', 'b', 'c']),
      note: fc.string({ maxLength: 5 }),
    },
    { requiredKeys: [] },
  ),
  secondsToFinish: fc.integer({ min: 0, max: 5_000 }),
});

/** A response's life as stored: revisions 1…n, maybe then deleted. */
interface History {
  versionId: string;
  day: string;
  revisions: CountedResponse[];
  removed: boolean;
}
const historyArb: fc.Arbitrary<History> = fc.record({
  versionId: fc.constantFrom('v1', 'v2'),
  day: fc.constantFrom('2026-11-01', '2026-11-02'),
  revisions: fc.array(revisionArb, { minLength: 1, maxLength: 4 }),
  removed: fc.boolean(),
});

function recordsOf(responseId: string, history: History): ResponseChange[] {
  const bucket = { versionId: history.versionId, day: history.day };
  const changes: ResponseChange[] = history.revisions.map((response, index) => ({
    responseId,
    revision: index + 1,
    removed: false,
    bucket,
    contribution: contributionOf(response, CATALOG),
  }));
  if (history.removed) changes.push({ responseId, revision: history.revisions.length, removed: true, bucket, contribution: {} });
  return changes;
}

function recount(histories: History[]): Record<string, Counts> {
  const buckets: Record<string, Counts> = {};
  for (const history of histories) {
    if (history.removed) continue;
    const id = bucketId(history);
    buckets[id] = addCounts(buckets[id] ?? {}, contributionOf(history.revisions.at(-1) as CountedResponse, CATALOG));
  }
  for (const [id, counts] of Object.entries(buckets)) if (Object.keys(counts).length === 0) delete buckets[id];
  return buckets;
}

/** Folds batch after batch as the aggregator does, keeping markers and buckets between batches. */
function aggregate(batches: ResponseChange[][]): Record<string, Counts> {
  const markers = new Map<string, CountedMarker>();
  const buckets: Record<string, Counts> = {};
  for (const batch of batches) {
    const fold = foldChanges(markers, batch);
    for (const [id, { counts }] of fold.deltas) buckets[id] = addCounts(buckets[id] ?? {}, counts);
    for (const [responseId, marker] of fold.markers) markers.set(responseId, marker);
  }
  for (const [id, counts] of Object.entries(buckets)) if (Object.keys(counts).length === 0) delete buckets[id];
  return buckets;
}

describe('survey summary aggregation', () => {
  it('folds any delivery of the stream (duplicated, reordered, replayed, in any batches) to the recount', () => {
    fc.assert(
      fc.property(
        fc.array(historyArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        fc.integer(),
        (histories, duplicatePicks, cuts, seed) => {
          const records = histories.flatMap((history, index) => recordsOf(`r${index}`, history));
          const delivered = [...records, ...duplicatePicks.map((pick) => records[pick % records.length] as ResponseChange)];
          // Deterministic shuffle from the seed, so a failure shrinks and replays.
          const shuffled = fc.sample(fc.shuffledSubarray(delivered, { minLength: delivered.length }), { seed, numRuns: 1 })[0] ?? delivered;
          const points = [...new Set(cuts.map((cut) => cut % (shuffled.length + 1)))].sort((a, b) => a - b);
          const batches = [0, ...points, shuffled.length].slice(1).map((end, i, ends) => shuffled.slice(i === 0 ? 0 : ends[i - 1], end));
          expect(aggregate(batches)).toEqual(recount(histories));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("adds up to the recount whichever of a day's buckets each batch writes new responses to", () => {
    // Concurrent aggregator instances each write their own bucket of a day (aggregator.ts); a response
    // stays in the bucket it was first counted in, so no bucket ever goes below zero.
    fc.assert(
      fc.property(
        fc.array(historyArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 30 }),
        fc.integer(),
        (histories, shards, seed) => {
          const records = histories.flatMap((history, index) => recordsOf(`r${index}`, history));
          const shuffled = fc.sample(fc.shuffledSubarray(records, { minLength: records.length }), { seed, numRuns: 1 })[0] ?? records;
          const batches = shuffled.map((change, i) => [{ ...change, bucket: { ...change.bucket, shard: shards[i % shards.length] } }]);
          const byShard = aggregate(batches);
          for (const counts of Object.values(byShard)) for (const count of Object.values(counts)) expect(count).toBeGreaterThan(0);
          const summed: Record<string, Counts> = {};
          for (const [id, counts] of Object.entries(byShard)) {
            const day = id.split('#').slice(0, 2).join('#');
            summed[`${day}#-`] = addCounts(summed[`${day}#-`] ?? {}, counts);
          }
          for (const [id, counts] of Object.entries(summed)) if (Object.keys(counts).length === 0) delete summed[id];
          expect(summed).toEqual(recount(histories));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a counted response in its bucket: a later change touches that one bucket only', () => {
    const first = { versionId: 'v1', day: '2026-11-01', shard: 1 };
    const counted = new Map<string, CountedMarker>([
      ['r', { revision: 1, removed: false, bucket: first, contribution: { 'r|started': 1 } }],
    ]);
    const finished: ResponseChange = {
      responseId: 'r',
      revision: 2,
      removed: false,
      bucket: { ...first, shard: 2 },
      contribution: { 'r|started': 1, 'r|finished': 1 },
    };
    const fold = foldChanges(counted, [finished]);
    expect([...fold.deltas.values()]).toEqual([{ bucket: first, counts: { 'r|finished': 1 } }]);
    expect(fold.markers.get('r')?.bucket).toEqual(first);
  });

  it('never counts a response again once deleted, even when its creation is replayed after', () => {
    const bucket = { versionId: 'v1', day: '2026-11-01' };
    const created: ResponseChange = {
      responseId: 'r',
      revision: 1,
      removed: false,
      bucket,
      contribution: contributionOf({ status: 'finished', path: ['nps'], answers: { nps: 9 } }, CATALOG),
    };
    const deleted: ResponseChange = { responseId: 'r', revision: 1, removed: true, bucket, contribution: {} };
    expect(aggregate([[created], [deleted], [created]])).toEqual({});
    expect(aggregate([[deleted], [created]])).toEqual({});
  });

  it('counts no answer text: an open text answer is only "answered"', () => {
    const counts = contributionOf({ status: 'partial', path: ['note', 'nps'], answers: { note: 'call me on 555' } }, CATALOG);
    expect(counts).toEqual({ 'r|started': 1, 'q|note|shown': 1, 'q|note|answered': 1, 'q|nps|shown': 1, 'q|nps|dropped': 1 });
  });
});
