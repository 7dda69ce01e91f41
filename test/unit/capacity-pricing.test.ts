/**
 * The capacity model's pricing (local/capacity/): item sizes and units as AWS's pages compute them,
 * checked against the worked examples of those pages and the rules the model relies on.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemSize, numberSize } from '../../local/capacity/item-size.ts';
import { type ItemWrite, type KeyRef, landingsOf, readUnits, totalUnits, writeUnits } from '../../local/capacity/pricing.ts';
import { queryRange } from '../../local/capacity/wire.ts';

const key = (sk: string): KeyRef => ({ index: 'table', pk: 'WS#acme', sk });

describe('item sizes (CapacityUnitCalculations.html)', () => {
  it('counts attribute names and string values in UTF-8 bytes', () => {
    expect(itemSize({ name: { S: 'abc' } })).toBe(4 + 3);
    expect(itemSize({ t: { S: 'مرحبا' } })).toBe(1 + 10);
  });

  it('prices a number at one byte per two significant digits plus one, zeroes trimmed', () => {
    expect(numberSize('7')).toBe(2);
    expect(numberSize('1234')).toBe(3);
    expect(numberSize('12345')).toBe(4);
    expect(numberSize('0.00120')).toBe(2);
    expect(numberSize('-1.5e10')).toBe(2);
  });

  it('counts raw bytes of a binary value, 1 byte for null and Boolean', () => {
    expect(itemSize({ b: { B: Buffer.from('hello').toString('base64') as unknown as Uint8Array } })).toBe(1 + 5);
    expect(itemSize({ n: { NULL: true }, yes: { BOOL: true } })).toBe(1 + 1 + 3 + 1);
  });

  it('adds 3 bytes to a List or Map and 1 to each element', () => {
    expect(itemSize({ l: { L: [] } })).toBe(1 + 3);
    expect(itemSize({ l: { L: [{ S: 'ab' }, { N: '1' }] } })).toBe(1 + 3 + (1 + 2) + (1 + 2));
    expect(itemSize({ m: { M: { a: { S: 'xy' } } } })).toBe(1 + 3 + (1 + 1 + 2));
  });
});

describe('units (read-write-operations.html)', () => {
  it('reads 4 KB a unit, half of it eventually consistent, never less than the minimum', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(4096, true)).toBe(1);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(4097, false)).toBe(1);
    expect(readUnits(100, false)).toBe(0.5);
  });

  it('writes 1 KB a unit', () => {
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(3763)).toBe(4);
  });
});

const item = (sk: string, extra: Record<string, unknown> = {}) => marshall({ pk: 'WS#acme', sk, ...extra });
const write = (action: ItemWrite['action'], sk: string, before?: Record<string, unknown>, after?: Record<string, unknown>): ItemWrite => ({
  action,
  key: key(sk),
  before: before && item(sk, before),
  after: after && item(sk, after),
  requested: action === 'Put' && after ? item(sk, after) : undefined,
});

describe('where a request lands', () => {
  it('prices a transaction twice per item, a ConditionCheck as a write of its item', () => {
    const landings = landingsOf({
      operation: 'TransactWriteItems',
      writes: [
        write('ConditionCheck', 'SURVEY#1', { status: 'published' }, { status: 'published' }),
        write('Put', 'SURVEYRESPONSE#1#a', undefined, { text: 'x'.repeat(3700) }),
      ],
    });
    expect(landings.map((l) => [l.key.sk, l.kind, l.units, l.created])).toEqual([
      ['SURVEY#1', 'write', 2, false],
      ['SURVEYRESPONSE#1#a', 'write', 8, true],
    ]);
  });

  it('prices an update by the larger of the item before and after it', () => {
    const [landing] = landingsOf({
      operation: 'UpdateItem',
      writes: [write('Update', 'KEY#k', { text: 'x'.repeat(2000) }, { text: 'short' })],
    });
    expect(landing).toMatchObject({ units: 2, created: false });
  });

  it('prices a Put that failed its condition by the item it asked for', () => {
    const failed: ItemWrite = { ...write('Put', 'IDEA#1', { v: 1 }, { v: 1 }), requested: item('IDEA#1', { text: 'x'.repeat(1500) }) };
    expect(landingsOf({ operation: 'PutItem', writes: [failed] })).toEqual([
      { key: key('IDEA#1'), kind: 'write', units: 2, created: false },
    ]);
  });

  it('writes gsi1 once by the projected entry, not doubled in a transaction, and a key change as a delete and a put', () => {
    const feed = (at: string) => ({
      gsi1pk: 'WS#acme#SURVEYRESPONSES#1',
      gsi1sk: `${at}#a`,
      status: 'finished',
      answers: { q: 'x'.repeat(3000) },
    });
    const created = landingsOf({ operation: 'TransactWriteItems', writes: [write('Put', 'SURVEYRESPONSE#1#a', undefined, feed('t1'))] });
    // The answers are not projected into gsi1 (lib/platform/data/table.ts): the entry is under 1 KB.
    expect(created).toEqual([
      { key: key('SURVEYRESPONSE#1#a'), kind: 'write', units: 8, created: true },
      { key: { index: 'gsi1', pk: 'WS#acme#SURVEYRESPONSES#1', sk: 't1#a' }, kind: 'write', units: 1, created: true },
    ]);
    const moved = landingsOf({ operation: 'PutItem', writes: [write('Put', 'SURVEYRESPONSE#1#a', feed('t1'), feed('t2'))] });
    expect(moved.filter((l) => l.key.index === 'gsi1').map((l) => [l.key.sk, l.created])).toEqual([
      ['t1#a', false],
      ['t2#a', true],
    ]);
    const unprojected = landingsOf({
      operation: 'PutItem',
      writes: [write('Put', 'SURVEYRESPONSE#1#a', feed('t1'), { ...feed('t1'), answers: { q: 'changed' } })],
    });
    expect(unprojected.filter((l) => l.key.index === 'gsi1')).toEqual([]);
  });

  it('shares a Query’s units among the items it evaluated, rounded once', () => {
    const evaluated = [item('A#1', { t: 'x'.repeat(1000) }), item('A#2', { t: 'x'.repeat(3000) })];
    const range = { index: 'table' as const, pk: 'WS#acme', prefix: 'A#' };
    const landings = landingsOf({ operation: 'Query', index: 'table', evaluated, consistent: true, range });
    // 1,015 + 3,015 bytes: one 4 KB unit for both, shared by their bytes.
    expect(totalUnits(landings, 'read')).toBeCloseTo(1);
    expect(landings.map((l) => [l.key.sk, Number(l.units.toFixed(3))])).toEqual([
      ['A#1', Number((1015 / 4030).toFixed(3))],
      ['A#2', Number((3015 / 4030).toFixed(3))],
    ]);
    expect(landings.every((landing) => landing.range === range)).toBe(true);
    expect(landingsOf({ operation: 'Query', index: 'gsi1', evaluated: [], consistent: true, range })).toEqual([
      { key: key('A#'), kind: 'read', units: 0.5, created: false, range },
    ]);
  });

  it('reads an absent item at the minimum, a transactional read twice', () => {
    expect(landingsOf({ operation: 'GetItem', reads: [{ key: key('X'), item: undefined }], consistent: false })[0]?.units).toBe(0.5);
    expect(
      landingsOf({ operation: 'TransactGetItems', reads: [{ key: key('X'), item: item('X', { t: 'x'.repeat(5000) }) }] })[0]?.units,
    ).toBe(4);
  });
});

describe('the range a Query reads (wire.ts)', () => {
  const values = (entries: Record<string, string>) => Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { S: v }]));
  it('is the begins_with prefix, the common start of BETWEEN’s bounds, or the whole partition for a one-sided bound', () => {
    expect(
      queryRange({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: values({ ':pk': 'WS#a', ':p': 'IDEA#' }),
      }),
    ).toEqual({ index: 'table', pk: 'WS#a', prefix: 'IDEA#' });
    expect(
      queryRange({
        KeyConditionExpression: '#pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': 'pk' },
        ExpressionAttributeValues: values({ ':pk': 'WS#a', ':from': 'SURVEYRESPONSE#s1#', ':to': 'SURVEYRESPONSE#s1$COUNT#~' }),
      }),
    ).toEqual({ index: 'table', pk: 'WS#a', prefix: 'SURVEYRESPONSE#s1' });
    expect(
      queryRange({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :feed AND gsi1sk > :since',
        ExpressionAttributeValues: values({ ':feed': 'WS#a#SURVEYRESPONSES#s1', ':since': '2026-01-01T00:00:00.000Z#~' }),
      }),
    ).toEqual({ index: 'gsi1', pk: 'WS#a#SURVEYRESPONSES#s1', prefix: '' });
  });
});
