import { describe, expect, it } from 'vitest';
import { itemBytes } from '../../lib/platform/data/item-size.ts';

// The rules of https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html,
// one at a time; test/integration/journeys-content-size.test.ts holds the sum against DynamoDB Local at 400 KB.
describe('itemBytes', () => {
  it('counts a string as its UTF-8 bytes and the name beside it', () => {
    expect(itemBytes({ a: 'abc' })).toBe(1 + 3);
    expect(itemBytes({ name: 'سعة' })).toBe(4 + 6);
    expect(itemBytes({ e: '𝌆' })).toBe(1 + 4);
  });

  it('counts a number by its significant digits, two to a byte, plus one', () => {
    expect(itemBytes({ n: 7 })).toBe(1 + 2);
    expect(itemBytes({ n: 12345 })).toBe(1 + 4);
    expect(itemBytes({ n: 1000 })).toBe(1 + 2);
    expect(itemBytes({ n: 0.0012 })).toBe(1 + 2);
    expect(itemBytes({ n: -123.45 })).toBe(1 + 4);
  });

  it('counts binaries by their raw bytes, null and Boolean as one byte, sets as their elements', () => {
    expect(itemBytes({ b: new Uint8Array(10) })).toBe(1 + 10);
    expect(itemBytes({ t: true, z: null })).toBe(2 + 2);
    expect(itemBytes({ s: new Set(['ab', 'c']) })).toBe(1 + 3);
  });

  it('adds 3 bytes to a list or map, and 1 to each element (a map element also its name)', () => {
    expect(itemBytes({ l: [] })).toBe(1 + 3);
    expect(itemBytes({ l: ['ab', 1] })).toBe(1 + 3 + (1 + 2) + (1 + 2));
    expect(itemBytes({ m: { key: 'v', deep: { x: true } } })).toBe(1 + 3 + (1 + 3 + 1) + (1 + 4 + (3 + 1 + 1 + 1)));
  });

  it('leaves out attributes that are not written', () => {
    expect(itemBytes({ a: 'x', gone: undefined, m: { kept: 'y', dropped: undefined } })).toBe(2 + 1 + 3 + 1 + 4 + 1);
  });
});
