import { describe, expect, it } from 'vitest';
import { cellShapeTypes, emptyJourneyContent, journeyContent } from '../../lib/journeys/content.ts';

const valid = {
  schema: 1,
  stages: [
    { id: 'aware', titleEn: 'Awareness', titleAr: 'الوعي', microJourneyPairs: [{ journeyId: '0190f4a2-7c1e-7000-8000-000000000001' }] },
  ],
  rows: [
    { id: 'feel', type: 'emotion', titleEn: 'Feelings' },
    { id: 'pains', type: 'items', kind: 'pain' },
  ],
  cells: {
    'feel:aware': { score: -2, noteEn: 'Lost' },
    'pains:aware': { items: [{ id: 'p1', textEn: 'Long wait' }] },
  },
};

function issuesOf(value: unknown): string[] {
  const result = journeyContent.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('journey content schema 1', () => {
  it('accepts well-formed content and the empty content of a new version', () => {
    expect(journeyContent.safeParse(valid).success).toBe(true);
    expect(journeyContent.safeParse(emptyJourneyContent()).success).toBe(true);
  });

  it('rejects ids outside 1-64 characters of [A-Za-z0-9_-]', () => {
    expect(issuesOf({ ...valid, stages: [{ ...valid.stages[0], id: 'has space' }] })).toEqual(['stages.0.id']);
    expect(issuesOf({ ...valid, rows: [{ id: 'x'.repeat(65), type: 'text' }] })).toEqual(['rows.0.id']);
    expect(issuesOf({ ...valid, rows: [{ id: '', type: 'text' }] })).toEqual(['rows.0.id']);
    expect(issuesOf({ ...valid, rows: [{ id: 'x'.repeat(64), type: 'text' }] })).toEqual([]);
  });

  it('rejects unknown row types and an items row without a kind', () => {
    expect(issuesOf({ ...valid, rows: [{ id: 'r', type: 'mood' }] })).toEqual(['rows.0.type']);
    expect(issuesOf({ ...valid, rows: [{ id: 'r', type: 'items' }] })).toEqual(['rows.0.kind']);
  });

  it('rejects cell keys not of the form <id>:<id>', () => {
    for (const key of ['feel', 'feel:', ':aware', 'feel:aware:x', 'fe el:aware']) {
      expect(journeyContent.safeParse({ ...valid, cells: { [key]: {} } }).success, key).toBe(false);
    }
  });

  it('rejects a score outside -2..2 or not an integer, and unknown channels', () => {
    for (const score of [3, -3, 1.5, '1']) {
      expect(journeyContent.safeParse({ ...valid, cells: { 'feel:aware': { score } } }).success, String(score)).toBe(false);
    }
    expect(journeyContent.safeParse({ ...valid, cells: { 'c:aware': { channels: ['web', 'fax'] } } }).success).toBe(false);
    expect(journeyContent.safeParse({ ...valid, cells: { 'c:aware': { channels: ['web', 'whatsapp'] } } }).success).toBe(true);
  });

  it('counts lengths in characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(200); // 400 UTF-16 units, 200 characters
    expect(issuesOf({ ...valid, stages: [{ ...valid.stages[0], titleEn: emoji }] })).toEqual([]);
    expect(issuesOf({ ...valid, stages: [{ ...valid.stages[0], titleEn: `${emoji}x` }] })).toEqual(['stages.0.titleEn']);
    expect(issuesOf({ ...valid, cells: { 'x:aware': { textAr: 'ع'.repeat(4001) } } })).not.toEqual([]);
  });

  it('rejects a wrong schema number and unknown members', () => {
    expect(issuesOf({ ...valid, schema: 2 })).toEqual(['schema']);
    expect(journeyContent.safeParse({ ...valid, extra: true }).success).toBe(false);
    expect(journeyContent.safeParse({ ...valid, cells: { 'feel:aware': { score: 1, colour: 'red' } } }).success).toBe(false);
  });

  it('tells which row types a cell is shaped for', () => {
    expect(cellShapeTypes({ textEn: 'a' })).toEqual(['text']);
    expect(cellShapeTypes({ score: 0 })).toEqual(['emotion']);
    expect(cellShapeTypes({ refs: [] })).toEqual(['links']);
    expect(cellShapeTypes({})).toHaveLength(6);
  });
});
