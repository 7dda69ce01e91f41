import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JourneyContent, journeyContent } from '../../lib/journeys/content.ts';
import { diffContent, isEmptyDiff, longestIncreasingSubsequence } from '../../lib/journeys/diff.ts';

const J1 = '00000000-0000-4000-8000-000000000001';
const J2 = '00000000-0000-4000-8000-000000000002';
const V1 = '00000000-0000-4000-8000-000000000101';

const base: JourneyContent = {
  schema: 1,
  stages: ['a', 'b', 'c', 'd'].map((id) => ({ id, titleEn: id.toUpperCase(), microJourneyPairs: [] })),
  rows: [
    { id: 'text', type: 'text' },
    { id: 'feel', type: 'emotion' },
  ],
  cells: { 'text:a': { textEn: 'x' }, 'feel:a': { score: 1, noteEn: 'ok' } },
};

describe('journey diff', () => {
  it('is empty for a version against itself', () => {
    expect(isEmptyDiff(diffContent(base, base))).toBe(true);
  });

  it('lists added, removed and renamed stages', () => {
    const next = {
      ...base,
      stages: [{ ...base.stages[0]!, titleAr: 'أ' }, base.stages[1]!, base.stages[2]!, { id: 'e', microJourneyPairs: [] }],
    };
    expect(diffContent(next, base).stages).toEqual({ added: ['e'], removed: ['d'], renamed: ['a'], moved: [] });
  });

  it('reports only the stage that moved, not the ones it passed', () => {
    const [a, b, c, d] = base.stages;
    const next = { ...base, stages: [b!, c!, a!, d!] };
    expect(diffContent(next, base).stages.moved).toEqual(['a']);
    const swapped = { ...base, stages: [a!, b!, d!, c!] };
    expect(diffContent(swapped, base).stages.moved).toHaveLength(1);
  });

  it('does not call stages moved when only an added or removed one shifted them', () => {
    const next = { ...base, stages: [{ id: 'new', microJourneyPairs: [] }, ...base.stages.slice(1)] };
    expect(diffContent(next, base).stages).toMatchObject({ added: ['new'], removed: ['a'], moved: [] });
  });

  it('lists rows renamed, moved and retyped', () => {
    const next = {
      ...base,
      rows: [
        { id: 'feel', type: 'emotion' as const, titleEn: 'Feelings' },
        { id: 'text', type: 'metric' as const },
      ],
    };
    const rows = diffContent(next, base).rows;
    expect(rows).toMatchObject({ added: [], removed: [], renamed: ['feel'], retyped: ['text'] });
    expect(rows.moved).toHaveLength(1); // two rows swapped: one of them moved relative to the other
  });

  it('compares cells by key and value, whatever the member order, and an empty cell as missing', () => {
    const next = {
      ...base,
      cells: { 'feel:a': { noteEn: 'ok', score: 1 }, 'text:a': { textEn: 'y' }, 'text:b': { textEn: 'z' }, 'text:c': {} },
    };
    expect(diffContent(next, base).cells).toEqual({ added: ['text:b'], removed: [], changed: ['text:a'] });
    expect(diffContent(base, next).cells).toEqual({ added: [], removed: ['text:b'], changed: ['text:a'] });
  });

  it('identifies pairs by stage and journey, changed when the pinned version changes', () => {
    const withPairs = (pairs: JourneyContent['stages'][number]['microJourneyPairs']) => ({
      ...base,
      stages: [{ ...base.stages[0]!, microJourneyPairs: pairs }, ...base.stages.slice(1)],
    });
    const diff = diffContent(withPairs([{ journeyId: J1, versionId: V1 }, { journeyId: J2 }]), withPairs([{ journeyId: J1 }]));
    expect(diff.pairs).toEqual({ added: [`a/${J2}`], removed: [], changed: [`a/${J1}`] });
  });

  it('finds a longest increasing subsequence', () => {
    const values = [3, 1, 2, 5, 4, 6];
    const picked = longestIncreasingSubsequence(values).map((index) => values[index]);
    expect(picked).toHaveLength(4);
    expect([...picked].sort((x, y) => x! - y!)).toEqual(picked);
    expect(longestIncreasingSubsequence([])).toEqual([]);
  });
});

const id = fc.stringMatching(/^[a-e]{1,2}$/);
const arbitraryContent: fc.Arbitrary<JourneyContent> = fc
  .record({
    stages: fc.array(
      fc.record({
        id,
        titleEn: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }),
        microJourneyPairs: fc.array(fc.record({ journeyId: fc.constantFrom(J1, J2) }), { maxLength: 2 }),
      }),
      { maxLength: 6 },
    ),
    rows: fc.array(fc.record({ id, type: fc.constantFrom('text' as const, 'metric' as const) }), { maxLength: 4 }),
    cells: fc.dictionary(
      fc.tuple(id, id).map(([r, s]) => `${r}:${s}`),
      fc.oneof(fc.record({ textEn: fc.string({ maxLength: 3 }) }), fc.record({ value: fc.integer() }), fc.constant({})),
      { maxKeys: 6 },
    ),
  })
  .map((partial) => journeyContent.parse({ schema: 1, ...partial }));

describe('journey diff properties', () => {
  it('a version diffed against itself (or a copy of it) is empty', () => {
    fc.assert(
      fc.property(arbitraryContent, (content) => {
        expect(isEmptyDiff(diffContent(content, content))).toBe(true);
        expect(isEmptyDiff(diffContent(structuredClone(content), content))).toBe(true);
      }),
    );
  });

  it('swapping the two sides swaps added and removed and keeps the rest', () => {
    fc.assert(
      fc.property(arbitraryContent, arbitraryContent, (x, y) => {
        const forward = diffContent(x, y);
        const backward = diffContent(y, x);
        for (const group of ['stages', 'rows'] as const) {
          expect(new Set(forward[group].added)).toEqual(new Set(backward[group].removed));
          expect(new Set(forward[group].renamed)).toEqual(new Set(backward[group].renamed));
          expect(forward[group].moved.length).toBe(backward[group].moved.length);
        }
        for (const group of ['cells', 'pairs'] as const) {
          expect(new Set(forward[group].added)).toEqual(new Set(backward[group].removed));
          expect(new Set(forward[group].changed)).toEqual(new Set(backward[group].changed));
        }
      }),
    );
  });

  it('a diff is empty only when nothing a user sees changed', () => {
    fc.assert(
      fc.property(arbitraryContent, arbitraryContent, (x, y) => {
        fc.pre(!isEmptyDiff(diffContent(x, y)));
        expect(JSON.stringify(x)).not.toBe(JSON.stringify(y));
      }),
    );
  });
});
