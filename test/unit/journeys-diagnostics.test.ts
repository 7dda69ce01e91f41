import { describe, expect, it } from 'vitest';
import type { JourneyContent } from '../../lib/journeys/content.ts';
import {
  capDiagnostics,
  diagnoseContent,
  hasErrors,
  type JourneyFacts,
  linkFactsKey,
  noReferenceFacts,
  type ReferenceFacts,
  versionFactsKey,
} from '../../lib/journeys/diagnostics.ts';

const MICRO = '00000000-0000-4000-8000-00000000000a';
const MACRO = '00000000-0000-4000-8000-00000000000b';
const GONE = '00000000-0000-4000-8000-00000000000c';
const SELF = '00000000-0000-4000-8000-00000000000d';
const V1 = '00000000-0000-4000-8000-000000000101';
const V2 = '00000000-0000-4000-8000-000000000102';

function content(partial: Partial<JourneyContent>): JourneyContent {
  return { schema: 1, stages: [], rows: [], cells: {}, ...partial };
}

const stage = (id: string, extra: Partial<JourneyContent['stages'][number]> = {}) => ({
  id,
  titleEn: id,
  titleAr: id,
  microJourneyPairs: [],
  ...extra,
});
const micro = (extra: Partial<JourneyFacts> = {}): JourneyFacts => ({
  kind: 'micro',
  archived: false,
  publishedVersionId: V1,
  publishedPairs: [],
  ...extra,
});

function facts(partial: Partial<ReferenceFacts>): ReferenceFacts {
  return { ...noReferenceFacts, ...partial };
}

const codes = (list: { code: string; path: string }[]) => list.map((d) => `${d.code} ${d.path}`);

describe('journey diagnostics', () => {
  it('reports nothing for consistent, fully translated content', () => {
    const c = content({
      stages: [stage('a')],
      rows: [{ id: 'r', type: 'text', titleEn: 'R', titleAr: 'ر' }],
      cells: { 'r:a': { textEn: 'x', textAr: 'س' } },
    });
    expect(diagnoseContent(c, noReferenceFacts, null)).toEqual([]);
  });

  it('reports duplicate stage and row ids as errors at the later occurrence', () => {
    const c = content({
      stages: [stage('a'), stage('a')],
      rows: [
        { id: 'r', type: 'text' },
        { id: 'r', type: 'metric' },
      ],
      cells: { 'r:a': { textEn: 'x', textAr: 'y' } },
    });
    const found = diagnoseContent(c, noReferenceFacts, null);
    expect(codes(found)).toEqual(['duplicate_stage_id /stages/1/id', 'duplicate_row_id /rows/1/id']);
    expect(hasErrors(found)).toBe(true);
  });

  it('reports cells naming a missing row or stage, and cells shaped for another row type', () => {
    const c = content({
      stages: [stage('a')],
      rows: [{ id: 'feel', type: 'emotion' }],
      cells: { 'feel:a': { textEn: 'x', textAr: 'y' }, 'nope:a': { score: 1 }, 'feel:zz': { score: 0 } },
    });
    expect(codes(diagnoseContent(c, noReferenceFacts, null))).toEqual([
      'cell_type_mismatch /cells/feel:a',
      'cell_unknown_row /cells/nope:a',
      'cell_unknown_stage /cells/feel:zz',
    ]);
  });

  it('accepts an empty cell on any row type', () => {
    const c = content({ stages: [stage('a')], rows: [{ id: 'm', type: 'metric' }], cells: { 'm:a': {}, 'x:a': { value: 1 } } });
    expect(codes(diagnoseContent(c, noReferenceFacts, null))).toEqual(['cell_unknown_row /cells/x:a']);
  });

  it('warns about a missing translation on titles and texts, pointing at the missing member', () => {
    const c = content({
      stages: [{ id: 'a', titleEn: 'A', microJourneyPairs: [] }],
      rows: [
        { id: 'p', type: 'items', kind: 'pain', titleAr: 'ألم' },
        { id: 'f', type: 'emotion' },
      ],
      cells: {
        'p:a': {
          items: [
            { id: 'i', textEn: 'x', textAr: 'y' },
            { id: 'j', textAr: 'y' },
          ],
        },
        'f:a': { score: 1, noteEn: 'meh' },
      },
    });
    const found = diagnoseContent(c, noReferenceFacts, null);
    expect(codes(found)).toEqual([
      'missing_translation /stages/0/titleAr',
      'missing_translation /rows/0/titleEn',
      'missing_translation /cells/p:a/items/1/textEn',
      'missing_translation /cells/f:a/noteAr',
    ]);
    expect(found.every((d) => d.severity === 'warning')).toBe(true);
    expect(hasErrors(found)).toBe(false);
  });

  it('warns about a stage with no cells', () => {
    const c = content({
      stages: [stage('a'), stage('b')],
      rows: [{ id: 'r', type: 'text' }],
      cells: { 'r:a': { textEn: 'x', textAr: 'y' }, 'r:b': {} },
    });
    expect(codes(diagnoseContent(c, noReferenceFacts, null))).toEqual(['stage_without_cells /stages/1']);
  });

  it('checks every pair against the journeys and versions it names', () => {
    const c = content({
      stages: [
        stage('a', {
          microJourneyPairs: [{ journeyId: GONE }, { journeyId: MACRO }, { journeyId: MICRO, versionId: V2 }, { journeyId: MICRO }],
        }),
      ],
      rows: [{ id: 'r', type: 'text' }],
      cells: { 'r:a': { textEn: 'x', textAr: 'y' } },
    });
    const found = diagnoseContent(
      c,
      facts({
        journeys: new Map([
          [MACRO, { ...micro(), kind: 'macro', archived: true }],
          [MICRO, micro({ publishedVersionId: null })],
        ]),
        versions: new Map([[versionFactsKey(MICRO, V2), { published: false, pairs: [] }]]),
      }),
      null,
    );
    expect(codes(found)).toEqual([
      'pair_journey_not_found /stages/0/microJourneyPairs/0/journeyId',
      'pair_journey_archived /stages/0/microJourneyPairs/1/journeyId',
      'pair_not_micro_journey /stages/0/microJourneyPairs/1/journeyId',
      'micro_journey_unpublished /stages/0/microJourneyPairs/2/journeyId',
      'pair_pinned_to_draft /stages/0/microJourneyPairs/2/versionId',
      'duplicate_pair /stages/0/microJourneyPairs/3/journeyId',
    ]);
  });

  it('reports a pinned version that does not exist', () => {
    const c = content({
      stages: [stage('a', { microJourneyPairs: [{ journeyId: MICRO, versionId: V2 }] })],
      rows: [{ id: 'r', type: 'text' }],
      cells: { 'r:a': { textEn: 'x', textAr: 'y' } },
    });
    const found = diagnoseContent(c, facts({ journeys: new Map([[MICRO, micro()]]) }), null);
    expect(codes(found)).toEqual(['pair_version_not_found /stages/0/microJourneyPairs/0/versionId']);
  });

  it('reports a cycle through the journey itself and through published or pinned versions', () => {
    const c = content({
      stages: [stage('a', { microJourneyPairs: [{ journeyId: MICRO }] })],
      rows: [{ id: 'r', type: 'text' }],
      cells: { 'r:a': { textEn: 'x', textAr: 'y' } },
    });
    const loop = facts({ journeys: new Map([[MICRO, micro({ publishedPairs: [{ journeyId: SELF }] })]]) });
    const found = diagnoseContent(c, loop, SELF);
    expect(codes(found)).toEqual(['micro_journey_cycle /stages/0/microJourneyPairs/0']);
    expect(found[0]?.message).toContain(`${SELF} → ${MICRO} → ${SELF}`);
    // The same content validated on its own (no journey) has no cycle.
    expect(diagnoseContent(c, loop, null)).toEqual([]);
    // A journey pairing itself is a cycle too.
    const selfPair = content({ ...c, stages: [stage('a', { microJourneyPairs: [{ journeyId: SELF }] })] });
    expect(codes(diagnoseContent(selfPair, facts({ journeys: new Map([[SELF, micro()]]) }), SELF))).toContain(
      'micro_journey_cycle /stages/0/microJourneyPairs/0',
    );
  });

  it('warns about links to records that do not exist, of every kind, and to archived ones', () => {
    const c = content({
      stages: [stage('a')],
      rows: [{ id: 'l', type: 'links' }],
      cells: {
        'l:a': {
          refs: [
            { kind: 'idea', id: 'i1' },
            { kind: 'sop', id: 's1' },
            { kind: 'survey', id: 'v1' },
            { kind: 'survey', id: 'v2' },
            { kind: 'survey', id: 'v3' },
          ],
        },
      },
    });
    const existing = [linkFactsKey('idea', 'i1'), linkFactsKey('survey', 'v1'), linkFactsKey('survey', 'v2')];
    const found = diagnoseContent(
      c,
      facts({ existingLinks: new Set(existing), archivedLinks: new Set([linkFactsKey('survey', 'v2')]) }),
      null,
    );
    expect(found.map((d) => `${d.severity} ${d.code} ${d.path} ${d.message}`)).toEqual([
      'warning link_not_found /cells/l:a/refs/1 No sop "s1" exists in this workspace',
      'warning link_archived /cells/l:a/refs/3 Survey "v2" is archived',
      'warning link_not_found /cells/l:a/refs/4 No survey "v3" exists in this workspace',
    ]);
  });

  it('refuses more distinct paired journeys than one publish transaction can keep track of', () => {
    const ids = Array.from({ length: 49 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const c = content({ stages: [stage('a', { microJourneyPairs: ids.map((journeyId) => ({ journeyId })) })] });
    const journeys = new Map(ids.map((id) => [id, micro()]));
    expect(codes(diagnoseContent(c, facts({ journeys }), null)).filter((line) => line.startsWith('too_many'))).toEqual([
      'too_many_paired_journeys /stages',
    ]);
    const fewer = content({ stages: [stage('a', { microJourneyPairs: ids.slice(1).map((journeyId) => ({ journeyId })) })] });
    expect(codes(diagnoseContent(fewer, facts({ journeys }), null)).some((line) => line.startsWith('too_many'))).toBe(false);
  });

  it('warns when the caller stopped following pairs before the end', () => {
    const found = diagnoseContent(content({}), facts({ depthLimit: 32 }), null);
    expect(found.map((d) => `${d.severity} ${d.code} ${d.path}`)).toEqual(['warning pairs_too_deep /stages']);
  });

  it('caps a long list with errors first and says how many were left out', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({
      severity: 'warning' as const,
      code: 'missing_translation' as const,
      message: '',
      path: `/w${i}`,
    }));
    const error = { severity: 'error' as const, code: 'duplicate_row_id' as const, message: '', path: '/e' };
    const capped = capDiagnostics([...many, error], 4);
    expect(capped.map((d) => d.path)).toEqual(['/e', '/w0', '/w1', '']);
    expect(capped[3]).toMatchObject({ code: 'diagnostics_truncated', message: '8 more diagnostics were left out' });
  });
});
