/**
 * What `cxctl demo` compares when it finds its records again (cli/demo/compare.ts): every member it
 * writes, deeply; nothing the API adds; a list by its items in order.
 */
import { describe, expect, it } from 'vitest';
import { describeDifferences, differencesFrom } from '../../cli/demo/compare.ts';

describe('cxctl demo compare', () => {
  it('finds nothing when every written member is there, whatever the API added', () => {
    const written = { title: 'Dark mode', steps: [{ titleEn: 'Check' }], cells: { 'a:b': { score: 1 } } };
    const read = {
      id: 'x',
      version: 3,
      title: 'Dark mode',
      steps: [{ titleEn: 'Check', body: null }],
      cells: { 'a:b': { score: 1, n: 0 } },
    };
    expect(differencesFrom(written, read)).toEqual([]);
  });

  it('names each member that differs by its path, and a list of another length as a whole', () => {
    const written = { status: 'new', steps: [{ titleEn: 'Check' }, { titleEn: 'Call' }], blocks: [{ text: { en: 'a' } }] };
    const read = { status: 'planned', steps: [{ titleEn: 'Check' }], blocks: [{ text: { en: 'b' } }] };
    expect(differencesFrom(written, read)).toEqual([
      { path: 'status', expected: 'new', actual: 'planned' },
      { path: 'steps', expected: written.steps, actual: read.steps },
      { path: 'blocks[0].text.en', expected: 'a', actual: 'b' },
    ]);
    expect(differencesFrom({ a: { b: 1 } }, { a: null })).toEqual([{ path: 'a', expected: { b: 1 }, actual: null }]);
    expect(differencesFrom({ name: 'Omar' }, undefined)).toEqual([{ path: '', expected: { name: 'Omar' }, actual: undefined }]);
  });

  it('says it in one line, the first three and how many more', () => {
    const differences = differencesFrom({ a: 1, b: [1, 2], c: 'x', d: true }, { a: 2, b: [1], c: 'y', d: false });
    expect(describeDifferences('idea "X"', differences)).toBe(
      'idea "X": a is 2, the demo wrote 1; b has 1 items, the demo wrote 2; c is "y", the demo wrote "x"; and 1 more',
    );
    expect(describeDifferences('SOP directory: Omar', differencesFrom({ active: true }, {}))).toBe(
      'SOP directory: Omar: active is missing, the demo wrote true',
    );
  });
});
