import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { SurveyDefinition } from '../../lib/surveys/engine/definition.ts';
import { columnsOf, NOT_SHOWN, rowOf } from '../../lib/surveys/exports/columns.ts';
import { csvCell, csvLine } from '../../lib/surveys/exports/csv.ts';

const t = (en: string, ar: string) => ({ en, ar });
const v1 = {
  languages: ['en', 'ar'],
  questions: [
    { id: 'plan', type: 'singleChoice', headline: t('Plan', 'الخطة'), options: [{ id: 'pro', label: t('Pro', 'احترافي') }] },
    { id: 'old', type: 'openText', headline: t('Removed later', 'حذف لاحقا') },
  ],
  endings: [],
} as unknown as SurveyDefinition;
const v2 = {
  languages: ['en', 'ar'],
  questions: [
    { id: 'plan', type: 'singleChoice', headline: t('Plan', 'الخطة'), options: [{ id: 'pro', label: t('Pro', 'احترافي') }] },
    { id: 'intro', type: 'statement', headline: t('Hello', 'مرحبا') },
    {
      id: 'grid',
      type: 'matrix',
      headline: t('Rate', 'قيّم'),
      rows: [{ id: 'speed', label: t('Speed', 'السرعة') }],
      columns: [{ id: 'good', label: t('Good', 'جيد') }],
    },
    {
      id: 'tools',
      type: 'multipleChoice',
      headline: t('Tools', 'أدوات'),
      options: [
        { id: 'a', label: t('A', 'أ') },
        { id: 'b', label: t('B', 'ب') },
      ],
    },
  ],
  endings: [],
} as unknown as SurveyDefinition;

describe('export cells', () => {
  it('neutralises every cell a spreadsheet would run as a formula, and quotes as RFC 4180 says', () => {
    for (const danger of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      expect(csvCell(danger).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('a "quoted", text')).toBe('"a ""quoted"", text"');
    expect(parse(csvLine(['=cmd', 'line\nbreak', 'عربي']))).toEqual([["'=cmd", 'line\nbreak', 'عربي']]);
  });

  it('makes a column per question of every version (newest order first, removed ones kept), a matrix one per row, no statement', () => {
    expect(columnsOf([v2, v1]).map((column) => column.header)).toEqual(['plan', 'grid.speed', 'tools', 'old']);
  });

  it('tells not shown from empty, joins multiple choice, and labels in the chosen language', () => {
    const columns = columnsOf([v2, v1]);
    const response = {
      id: 'r1',
      versionId: 'v2',
      status: 'finished',
      createdAt: '2026-11-01T00:00:00.000Z',
      answers: { plan: 'pro', grid: { speed: 'good' }, tools: ['b', 'a'] },
      path: ['plan', 'grid', 'tools'],
    };
    expect(rowOf(response, columns, 'ar').slice(8)).toEqual(['احترافي', 'جيد', 'ب; أ', NOT_SHOWN]);
    expect(rowOf(response, columns, 'ids').slice(8)).toEqual(['pro', 'good', 'b; a', NOT_SHOWN]);
    expect(rowOf({ ...response, answers: {} }, columns, 'en').slice(8)).toEqual(['', '', '', NOT_SHOWN]);
  });
});
