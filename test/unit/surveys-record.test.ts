import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { starterDefinition } from '../../lib/surveys/engine/definition.ts';
import { compressContent, designsOf, newSurveyId, summariesOf, toVersion } from '../../lib/surveys/record.ts';

describe('survey records', () => {
  it('stores a definition and its issues compressed and reads them back as given', () => {
    const definition = {
      ...starterDefinition('en'),
      questions: Array.from({ length: 50 }, (_, i) => ({
        id: `q${i}`,
        type: 'openText' as const,
        headline: { en: `Question ${i} — ✓` },
        required: false,
      })),
    };
    const issues = [{ severity: 'warning' as const, code: 'unreachable_question', message: 'x', path: '/questions/1' }];
    const { content, contentEncoding } = compressContent({ definition, issues })!;
    expect(content.byteLength).toBeLessThan(Buffer.byteLength(JSON.stringify(definition)) / 3);
    const version = toVersion({
      id: 'v',
      surveyId: 's',
      number: 1,
      status: 'draft',
      revision: 3,
      content,
      contentEncoding,
      createdBy: 'k',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(version).toMatchObject({ definition, issues, revision: 3, basedOnVersionId: null, publishedAt: null });
  });

  it('reads a version written before brotli: raw deflate, with no contentEncoding', () => {
    const definition = starterDefinition('ar');
    const issues = [{ severity: 'error' as const, code: 'no_questions', message: 'y', path: '/questions' }];
    const oldFormat = deflateRawSync(Buffer.from(JSON.stringify({ definition, issues }), 'utf8'));
    const version = toVersion({
      id: 'v',
      surveyId: 's',
      number: 2,
      status: 'published',
      revision: 1,
      content: new Uint8Array(oldFormat),
      createdBy: 'k',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      publishedAt: '2025-01-02T00:00:00.000Z',
    });
    expect(version).toMatchObject({ definition, issues, number: 2, status: 'published' });
  });

  it('refuses content that would not fit one item even compressed', () => {
    const random = Array.from({ length: 60_000 }, (_, i) => `${i}:${Math.random().toString(36)}`).join(' ');
    const definition = { ...starterDefinition('en'), welcome: { en: random } } as never;
    expect(compressContent({ definition, issues: [] })).toBeNull();
  });

  it('makes time-ordered UUIDv7 ids', () => {
    const earlier = newSurveyId(1_700_000_000_000);
    const later = newSurveyId(1_700_000_000_001);
    expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(earlier < later).toBe(true);
  });

  it('lists designs default first, then by creation, and versions newest first', () => {
    const design = (id: string, isDefault: boolean, createdAt: string) => ({
      id,
      name: id,
      primaryColor: '#000000',
      isDefault,
      createdAt,
      updatedAt: createdAt,
    });
    const designs = designsOf({
      pk: 'WS#a',
      sk: 'SURVEYDESIGNS',
      design_b: design('b', false, '2026-01-02'),
      design_a: design('a', false, '2026-01-03'),
      design_d: design('d', true, '2026-01-04'),
    });
    expect(designs.map((d) => d.id)).toEqual(['d', 'b', 'a']);
    expect(designs[1]).toMatchObject({ backgroundColor: null, logoUrl: null, font: null });
    const versions = summariesOf({
      id: 's',
      versions: {
        v1: { id: 'v1', number: 1, status: 'superseded', createdBy: 'k', createdAt: 'x' },
        v2: { id: 'v2', number: 2, status: 'published', createdBy: 'k', createdAt: 'y', publishedAt: 'z' },
      },
    });
    expect(versions.map((v) => `${v.number}:${v.status}:${v.surveyId}`)).toEqual(['2:published:s', '1:superseded:s']);
  });
});
