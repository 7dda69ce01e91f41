/**
 * The capacity model's arithmetic: from every DynamoDB request a workload made (priced and placed by
 * local/capacity/), the units each item and each ascending key range take per call of the workload,
 * and so the workload's ceiling: the calls a second at which the first of them reaches a partition's
 * limit, 1,000 write units or 3,000 read units a second
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html).
 * Pure and deterministic: the ceiling comes from units per call, never from timing.
 *
 * Where units land (local/capacity/key-ranges.ts defines ranges and when one ascends):
 *   - every unit lands on its item (or gsi1 entry): one item always lives in one partition;
 *   - a unit on an item of a key range written in ascending order (or descending) also lands on that
 *     range: its writes all reach its end, which DynamoDB keeps in one partition (it does not split
 *     such a range);
 *   - a Query's units land on the range it read as a whole (`SURVEYRESPONSE#<surveyId>#…`): it reads
 *     them from the partition holding that range, one page after another;
 *   - items and ranges are named by template (`SURVEYRESPONSE#<surveyId>#<id>`): the workload names
 *     the values it knows (`<surveyId>`), other variable segments are named by their shape;
 *   - the load of a template is that of its busiest member, except for copies chosen by a stable
 *     hash (a segment of 1–3 digits, `<shard>`): a hash spreads evenly at scale, so each copy takes
 *     its parent's units (a survey's, one webhook's) divided by the number of copies (the code's count
 *     when the workload declares it, else the copies seen), where a run of a few hundred calls would
 *     not be even; the busiest parent is the load.
 */
import { candidatePrefixes, OrderedRanges, type RangeRef, rangeId, shapeTemplate } from '../local/capacity/key-ranges.ts';
import type { KeyRef, Landing } from '../local/capacity/pricing.ts';

const PARTITION_WRITE_UNITS = 1_000;
const PARTITION_READ_UNITS = 3_000;

export interface Bucket {
  kind: 'item' | 'range';
  /** `<index> <pk template> <sk template>`; a range's sk template is its members'. */
  template: string;
  /** Read and write units per call on one member (see the header for hash-chosen copies). */
  readPerCall: number;
  writePerCall: number;
  /** Calls a second at which this bucket reaches a partition's limit. */
  ceiling: number;
  members: number;
}

export interface WorkloadModel {
  calls: number;
  readPerCall: number;
  writePerCall: number;
  /** Every bucket, tightest first. */
  buckets: Bucket[];
  ceiling: number;
  bottleneck: Bucket | undefined;
}

/** A key with the values the workload knows named (`<surveyId>`) and every other variable segment by its shape. */
export function templateOf(key: string, names: ReadonlyMap<string, string>): string {
  // Whole segments only: a name is never found inside another value.
  const named = key
    .split(/([#$])/)
    .map((piece, i) => (i % 2 === 0 && names.has(piece) ? `<${names.get(piece)}>` : piece))
    .join('');
  return shapeTemplate(named);
}

const keyTemplate = (key: KeyRef, names: ReadonlyMap<string, string>) =>
  `${key.index} ${templateOf(key.pk, names)} ${templateOf(key.sk, names)}`;

interface Tally {
  kind: Bucket['kind'];
  template: string;
  member: string;
  read: number;
  write: number;
}

export interface ModelOptions {
  /** Values the workload knows, by the name its templates show (`surveyId`). */
  names: ReadonlyMap<string, string>;
  /** How many hash-chosen copies a template has, by template, where the code declares it. */
  copies?: ReadonlyMap<string, number>;
}

/** Every landing of a workload's run, in the order they happened, and how many calls it made. */
export function modelWorkload(landings: readonly Landing[], calls: number, options: ModelOptions): WorkloadModel {
  const ranges = new OrderedRanges();
  // A range is shown by the template of the keys created in it (its members), the latest one.
  const createdTemplates = new Map<string, string>();
  for (const landing of landings) {
    if (!landing.created) continue;
    ranges.created(landing.key);
    const template = keyTemplate(landing.key, options.names);
    for (const prefix of candidatePrefixes(landing.key.sk)) {
      createdTemplates.set(rangeId({ index: landing.key.index, pk: landing.key.pk, prefix }), template);
    }
  }

  const tallies = new Map<string, Tally>();
  const add = (kind: Bucket['kind'], template: string, member: string, landing: Landing) => {
    const id = `${kind}\u0000${member}`;
    let tally = tallies.get(id);
    if (!tally) {
      tally = { kind, template, member, read: 0, write: 0 };
      tallies.set(id, tally);
    }
    tally[landing.kind] += landing.units;
  };
  for (const landing of landings) {
    const template = keyTemplate(landing.key, options.names);
    add('item', template, `${landing.key.index}\u0000${landing.key.pk}\u0000${landing.key.sk}`, landing);
    // A Query's units land on the range it read; any other unit on the range written in order that holds its item.
    const range: RangeRef | undefined = landing.range ?? ranges.orderedRangeOf(landing.key);
    if (range) {
      const id = rangeId(range);
      add(
        'range',
        createdTemplates.get(id) ?? `${range.index} ${templateOf(range.pk, options.names)} ${templateOf(range.prefix, options.names)}…`,
        id,
        landing,
      );
    }
  }

  const byTemplate = new Map<string, Tally[]>();
  for (const tally of tallies.values()) {
    const id = `${tally.kind} ${tally.template}`;
    byTemplate.set(id, [...(byTemplate.get(id) ?? []), tally]);
  }
  const buckets: Bucket[] = [...byTemplate.values()].map((members) => {
    const { kind, template } = members[0] as Tally;
    if (!template.includes('<shard>')) {
      const readPerCall = Math.max(...members.map((tally) => tally.read)) / calls;
      const writePerCall = Math.max(...members.map((tally) => tally.write)) / calls;
      return { kind, template, readPerCall, writePerCall, ceiling: ceilingOf(readPerCall, writePerCall), members: members.length };
    }
    // Copies chosen by a hash: the copies of one parent (a survey's ranges, one webhook's) share its
    // units evenly; the busiest parent is the bucket's load.
    const parents = new Map<string, Tally[]>();
    for (const tally of members) {
      // Member ids join index, pk and sk with NUL: each of them is cut into segments at # and $.
      const parent = tally.member
        .split('\u0000')
        .map((part) =>
          part
            .split(/([#$])/)
            .map((piece) => (/^\d{1,3}$/.test(piece) ? '*' : piece))
            .join(''),
        )
        .join('\u0000');
      parents.set(parent, [...(parents.get(parent) ?? []), tally]);
    }
    let copies = 0;
    let [read, write] = [0, 0];
    for (const shards of parents.values()) {
      const count = Math.max(shards.length, options.copies?.get(template) ?? 0);
      copies = Math.max(copies, count);
      read = Math.max(read, shards.reduce((sum, tally) => sum + tally.read, 0) / count);
      write = Math.max(write, shards.reduce((sum, tally) => sum + tally.write, 0) / count);
    }
    const [readPerCall, writePerCall] = [read / calls, write / calls];
    return { kind, template, readPerCall, writePerCall, ceiling: ceilingOf(readPerCall, writePerCall), members: copies };
  });
  buckets.sort((a, b) => a.ceiling - b.ceiling || (a.kind === 'range' ? -1 : 1));
  const sum = (kind: Landing['kind']) => landings.filter((l) => l.kind === kind).reduce((total, l) => total + l.units, 0) / calls;
  return {
    calls,
    readPerCall: sum('read'),
    writePerCall: sum('write'),
    buckets,
    ceiling: buckets[0]?.ceiling ?? Number.POSITIVE_INFINITY,
    bottleneck: buckets[0],
  };
}

function ceilingOf(readPerCall: number, writePerCall: number): number {
  return Math.min(
    writePerCall > 0 ? PARTITION_WRITE_UNITS / writePerCall : Number.POSITIVE_INFINITY,
    readPerCall > 0 ? PARTITION_READ_UNITS / readPerCall : Number.POSITIVE_INFINITY,
  );
}

/** A bucket as the tables show it: `SURVEYRESPONSE#<surveyId>#<id>` (range), gsi1 entries prefixed. */
export function bucketName(bucket: Pick<Bucket, 'kind' | 'template'>): string {
  const [index, pk, sk] = bucket.template.split(' ') as [string, string, string];
  const where = index === 'table' ? (pk === 'WS#<ws>' ? sk : `${pk} ${sk}`) : `gsi1 ${pk} / ${sk}`;
  return bucket.kind === 'range' ? `${where} (range)` : where;
}
