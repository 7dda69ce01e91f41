/**
 * The capacity model's rules for where units land (local/capacity/key-ranges.ts) and how a workload's
 * ceiling follows from them (bench/capacity-model.ts): a range written in order is one partition,
 * a range of random keys is not, shards are judged together and share their load, and a counter
 * sorting after a range is not part of it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bucketName, modelWorkload, templateOf } from '../../bench/capacity-model.ts';
import { capacityRows, capacityTable } from '../../bench/capacity-table.ts';
import { candidatePrefixes, OrderedRanges } from '../../local/capacity/key-ranges.ts';
import type { KeyRef, Landing } from '../../local/capacity/pricing.ts';

const key = (sk: string): KeyRef => ({ index: 'table', pk: 'WS#acme', sk });
/** UUIDv7-like: time-ordered hex, so later ids sort after earlier ones. */
let clock = 0x18f0000000;
const ordered = () => {
  clock += 1 + Math.floor(Math.random() * 3);
  const hex = clock.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${randomUUID().slice(15)}`;
};
const write = (sk: string, units: number, created = true): Landing => ({ key: key(sk), kind: 'write', units, created });

describe('key ranges written in order', () => {
  it('cuts a sort key just before each variable segment', () => {
    expect(candidatePrefixes('SURVEYRESPONSE#0190a1b2-0000-7000-8000-000000000001#0190a1b2-0000-7000-8000-000000000002')).toEqual([
      'SURVEYRESPONSE#',
      'SURVEYRESPONSE#0190a1b2-0000-7000-8000-000000000001#',
    ]);
    expect(candidatePrefixes('IDEA$COUNTER')).toEqual([]);
    expect(candidatePrefixes('2026-11-26T07:00:00.000Z#x')).toEqual(['', '2026-11-26T07:00:00.000Z#']);
  });

  it('finds the range of time-ordered ids, and none for random ones', () => {
    const ranges = new OrderedRanges();
    const survey = randomUUID();
    for (let i = 0; i < 40; i++) ranges.created(key(`SURVEYRESPONSE#${survey}#${ordered()}`));
    for (let i = 0; i < 40; i++) ranges.created(key(`IDEMPOTENCY#${randomUUID()}`));
    expect(ranges.orderedRangeOf(key(`SURVEYRESPONSE#${survey}#${ordered()}`))?.prefix).toBe(`SURVEYRESPONSE#${survey}#`);
    expect(ranges.orderedRangeOf(key(`IDEMPOTENCY#${randomUUID()}`))).toBeUndefined();
  });

  it('judges the shards of a sharded range together, each shard its own range', () => {
    const ranges = new OrderedRanges();
    const shard = () => String(Math.floor(Math.random() * 32)).padStart(2, '0');
    // 64 creations over 32 shards: two each on average, too few to judge any shard alone.
    for (let i = 0; i < 64; i++) ranges.created(key(`SURVEYRESPONSE#s1#${shard()}#${ordered()}`));
    const range = ranges.orderedRangeOf(key(`SURVEYRESPONSE#s1#07#${ordered()}`));
    expect(range?.prefix).toBe('SURVEYRESPONSE#s1#07#');
  });

  it('keeps a counter sorting after a range out of it', () => {
    const ranges = new OrderedRanges();
    for (let i = 0; i < 3; i++) ranges.created(key(`SURVEYRESPONSE#s1$COUNT#0${i}`));
    for (let i = 0; i < 80; i++) ranges.created(key(`SURVEYRESPONSE#s1#${ordered()}`));
    expect(ranges.orderedRangeOf(key('SURVEYRESPONSE#s1$COUNT#01'))).toBeUndefined();
  });

  it('finds a range written at its start (newest first keys)', () => {
    const ranges = new OrderedRanges();
    // As journeys key versions: the version id's hex digits complemented.
    let complement = 0xffffffff;
    const next = () => {
      complement -= 7;
      return `${complement.toString(16)}${'f'.repeat(24)}`;
    };
    for (let i = 0; i < 40; i++) ranges.created(key(`JOURNEY#j1#V#${next()}`));
    expect(ranges.orderedRangeOf(key(`JOURNEY#j1#V#${next()}`))?.prefix).toBe('JOURNEY#j1#V#');
  });
});

describe('the model', () => {
  const names = new Map([
    ['acme', 'ws'],
    ['s1', 'surveyId'],
  ]);

  it('names items by template, the values it knows by name', () => {
    expect(templateOf(`SURVEYRESPONSE#s1#${ordered()}`, new Map([['s1', 'surveyId']]))).toBe('SURVEYRESPONSE#<surveyId>#<id>');
    expect(templateOf('SURVEYRESPONSE#s1$COUNT#07', new Map([['s1', 'surveyId']]))).toBe('SURVEYRESPONSE#<surveyId>$COUNT#<shard>');
  });

  it('caps a workload at the range its calls write in order, 1,000 write units a second', () => {
    const landings: Landing[] = [];
    for (let i = 0; i < 100; i++) {
      landings.push(write(`SURVEYRESPONSE#s1#${ordered()}`, 8));
      landings.push(write(`SURVEYRESPONSE#s1$COUNT#${String(i % 16).padStart(2, '0')}`, 2, i < 16));
      landings.push({ key: key('WORKSPACE'), kind: 'read', units: 1, created: false });
    }
    const model = modelWorkload(landings, 100, { names });
    expect(model.ceiling).toBe(125);
    expect(model.bottleneck && bucketName(model.bottleneck)).toBe('SURVEYRESPONSE#<surveyId>#<id> (range)');
    const counters = model.buckets.find((b) => b.kind === 'item' && b.template.includes('$COUNT'));
    // Sixteen counter shards share 2 units a call: each takes 2/16.
    expect(counters).toMatchObject({ writePerCall: 2 / 16, members: 16 });
    expect(model.buckets.find((b) => b.template.includes('WORKSPACE'))?.ceiling).toBe(3000);
    expect(model.writePerCall).toBe(10);
  });

  it('counts the declared number of copies even when a short run missed some', () => {
    const landings = Array.from({ length: 10 }, (_, i) => write(`KBDOC#a#LIVE#${i % 4}`, 1, false));
    const model = modelWorkload(landings, 10, { names, copies: new Map([['table WS#<ws> KBDOC#<key>#LIVE#<shard>', 8]]) });
    expect(model.bottleneck).toMatchObject({ members: 8, writePerCall: 1 / 8 });
  });
});

describe('copies chosen by a hash, per parent', () => {
  it('spreads each parent’s units over its copies, whichever copies a short run happened to use', () => {
    const landings: Landing[] = [];
    for (let event = 0; event < 24; event++) {
      // Webhook a's events all hashed to two of its four ranges, webhook b's to one: each new key at its range's end.
      const id = `evt_${String(event).padStart(4, '0')}`;
      landings.push(write(`WHDELIVERY#a#${event % 2}#${id}`, 3), write(`WHDELIVERY#b#3#${id}`, 3));
    }
    const copies = new Map([['table WS#<ws> WHDELIVERY#<webhookId>#<shard>#<key>', 4]]);
    const model = modelWorkload(landings, 24, {
      names: new Map([
        ['acme', 'ws'],
        ['a', 'webhookId'],
        ['b', 'webhookId'],
      ]),
      copies,
    });
    // 3 units a call per webhook, over its 4 ranges, however few of them the run used.
    expect(model.bottleneck).toMatchObject({ members: 4, writePerCall: 3 / 4 });
  });
});

describe('the generated table', () => {
  it('reads back what it wrote: workload, target, ceiling, verdict, bottleneck and units per call', () => {
    const landings: Landing[] = Array.from({ length: 20 }, () => write(`SURVEYRESPONSE#s1#${ordered()}`, 8));
    const model = modelWorkload(landings, 20, {
      names: new Map([
        ['acme', 'ws'],
        ['s1', 'surveyId'],
      ]),
    });
    const result = {
      id: 'w',
      title: 'One survey',
      call: 'a submit',
      target: 5000,
      targetNote: undefined,
      model,
      failure: 'below',
      stream: { recordsPerCall: 0, shards: 1, batchSize: 1, batches: 0 },
    };
    expect(capacityRows(capacityTable([result]))).toEqual([
      {
        workload: 'One survey: a submit',
        target: '5,000',
        ceiling: 125,
        missed: true,
        bottleneck: '`SURVEYRESPONSE#<surveyId>#<id> (range)`',
        units: [0, 8],
      },
    ]);
  });
});
