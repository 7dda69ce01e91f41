/**
 * Key ranges written in order: where DynamoDB cannot spread writes, whatever their rate.
 *
 * A partition serves 1,000 write and 3,000 read units a second
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html). A busy
 * partition key is split by sort key ("split for heat"), but "a partition where the key range is
 * accessed sequentially will not benefit from split" and DynamoDB does not split it (DynamoDB paper,
 * USENIX ATC 2022, §4.4): every new key lands at the end of the range, so the end stays one partition.
 *
 * Definitions used by the capacity model and the throttling sandbox alike:
 *   - a sort key (or gsi1 sort key) is read as segments split at `#` and `$`; a segment of capital
 *     letters (`SURVEYRESPONSE`, `COUNT`, `LIVE`) is a literal, any other (an id, a time, a shard
 *     number, a slug) is a variable, shown by its shape: `<id>` (a UUID), `<time>`, `<day>`,
 *     `<shard>` (1–3 digits), `<n>` (more digits), `<hash>` (16+ hex digits), else `<key>`;
 *   - a key's candidate ranges are the prefixes of its sort key that end just before a variable
 *     segment, within its partition key (and index): `SURVEYRESPONSE#<surveyId>#<id>` is in
 *     `SURVEYRESPONSE#` and in `SURVEYRESPONSE#<surveyId>#`;
 *   - ranges of the same shape (`SURVEYRESPONSE#<id>#` for every survey, or every shard of a sharded
 *     range) holding keys of the same shape are written by the same code, so they are judged together:
 *     a creation (a write that made an item) ranks among the last WINDOW creations of its shape in its
 *     own range, and the shape is written in order when, of its last WINDOW ranked creations, at least ORDERED_SHARE ranked in the top
 *     quarter (new keys land at the end: UUIDv7, ISO times, even when concurrent writers commit a
 *     little out of order) or all in the bottom quarter (at the start: complemented times). Keys in
 *     random order (UUIDv4, a hash) rank anywhere, a quarter of them in the top quarter: such a range
 *     is not one. At least MIN_RANKED ranked creations are needed to judge;
 *   - a key's range is the narrowest of its candidate ranges in which keys of its shape are written
 *     in order. An item of another shape sorting right after them (`IDEA$COUNTER` after `IDEA#…`, a
 *     survey's response counters `<id>$COUNT#<shard>` after its responses `<id>#<id>`) is not in it:
 *     new keys never pass it, so a split at its key parts them for good.
 */
import type { KeyRef, RangeRef } from './refs.ts';

const WINDOW = 64;
const MIN_RANKED = 16;
const ORDERED_SHARE = 0.8;
const TOP_RANK = 0.75;
/** Ranges remembered at most (the least recently created in forgotten first): a long-running sandbox stays bounded. */
const MAX_RANGES = 20_000;

const LITERAL = /^[A-Z][A-Z_]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The shape of one variable segment. */
function shapeOf(segment: string): string {
  if (UUID.test(segment)) return '<id>';
  if (TIME.test(segment)) return '<time>';
  if (DAY.test(segment)) return '<day>';
  if (/^\d{1,3}$/.test(segment)) return '<shard>';
  if (/^\d+$/.test(segment)) return '<n>';
  if (/^[0-9a-f]{16,}$/i.test(segment)) return '<hash>';
  return '<key>';
}

const isVariable = (piece: string) => piece !== '' && !LITERAL.test(piece) && !/^<\w+>$/.test(piece);

/** A key with every variable segment replaced by its shape (values already named `<name>` stay). */
export function shapeTemplate(key: string): string {
  return key
    .split(/([#$])/)
    .map((piece, i) => (i % 2 === 0 && isVariable(piece) ? shapeOf(piece) : piece))
    .join('');
}

/** The prefixes of `sortKey` that end just before each variable segment, widest first. */
export function candidatePrefixes(sortKey: string): string[] {
  const pieces = sortKey.split(/([#$])/);
  const prefixes: string[] = [];
  let prefix = '';
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    if (i % 2 === 0 && isVariable(piece)) prefixes.push(prefix);
    prefix += piece;
  }
  return prefixes;
}

export type { RangeRef } from './refs.ts';

export const rangeId = (range: RangeRef) => `${range.index}\u0000${range.pk}\u0000${range.prefix}`;
/** Ranges of one shape holding keys of one shape: what is judged together. */
const familyId = (range: RangeRef, member: string) =>
  `${range.index} ${shapeTemplate(range.pk)} ${shapeTemplate(range.prefix)} ${shapeTemplate(member)}`;

function candidateRanges(key: KeyRef): RangeRef[] {
  return candidatePrefixes(key.sk).map((prefix) => ({ index: key.index, pk: key.pk, prefix }));
}

/** Per ranked creation of one shape: +1 in the top quarter of its range, -1 in the bottom quarter, 0 between. */
class ShapeRanks {
  private readonly ranks: number[] = [];

  push(rank: number): void {
    this.ranks.push(rank);
    if (this.ranks.length > WINDOW) this.ranks.shift();
  }

  /** 'end' when new keys land at the end, 'start' at the start, undefined when neither (or too few to tell). */
  get direction(): 'end' | 'start' | undefined {
    if (this.ranks.length < MIN_RANKED) return undefined;
    const share = (rank: number) => this.ranks.filter((r) => r === rank).length / this.ranks.length;
    if (share(1) >= ORDERED_SHARE) return 'end';
    if (share(-1) >= ORDERED_SHARE) return 'start';
    return undefined;
  }
}

/** Watches creations as they happen and says which range written in order holds a key. */
export class OrderedRanges {
  /** The recent creations of each range, by their shape (their keys past its prefix). */
  private readonly recent = new Map<string, string[]>();
  private readonly families = new Map<string, ShapeRanks>();

  /** Record that a write made the item (or index entry) at `key`. */
  created(key: KeyRef): void {
    for (const range of candidateRanges(key)) {
      const own = key.sk.slice(range.prefix.length);
      const id = `${rangeId(range)}\u0000${shapeTemplate(own)}`;
      const recent = this.recent.get(id) ?? [];
      this.recent.delete(id);
      this.recent.set(id, recent);
      if (this.recent.size > MAX_RANGES) this.recent.delete(this.recent.keys().next().value as string);
      if (recent.length > 0) {
        const below = recent.filter((other) => other < own).length / recent.length;
        const family = this.families.get(familyId(range, own)) ?? new ShapeRanks();
        this.families.set(familyId(range, own), family);
        family.push(below >= TOP_RANK ? 1 : below <= 1 - TOP_RANK ? -1 : 0);
      }
      recent.push(own);
      if (recent.length > WINDOW) recent.shift();
    }
  }

  /** The narrowest range holding `key` in which keys of its shape are written in order (at its end, or its start), or undefined. */
  orderedRangeOf(key: KeyRef): RangeRef | undefined {
    return candidateRanges(key)
      .reverse()
      .find((range) => this.families.get(familyId(range, key.sk.slice(range.prefix.length)))?.direction !== undefined);
  }
}
