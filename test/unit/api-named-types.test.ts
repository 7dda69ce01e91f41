/**
 * Records and shared shapes are named once in the OpenAPI document (lib/platform/schemas.ts,
 * named; lib/platform/openapi-components.ts) and the typed client exports them by name. Every record
 * the README names is a component; the document stays small; the client's named types are the
 * very types its operations return (checked by the compiler in `npm run check`: expectTypeOf).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  Article,
  Idea,
  Journey,
  JourneyVersion,
  Pagination,
  paths,
  Sop,
  Survey,
  SurveyVersion,
  Webhook,
} from '../../clients/typescript/index.ts';
import { apiDocument } from '../../lib/api-document.ts';
import { routes } from '../../lib/manifest.ts';

type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

const document = apiDocument() as { components: { schemas: Record<string, unknown> }; paths: unknown };
const ROOT = join(import.meta.dirname, '../..');

/** Where the README (or the guides split out of it into docs/) lists the named types. */
function namedTypesSection(): string {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', f)),
  ];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const start = text.indexOf('**Named types.**');
    if (start < 0) continue;
    // The paragraph and the list after it, up to the blank line that ends the list.
    const list = text.indexOf('\n- ', start);
    return text.slice(start, text.indexOf('\n\n', list));
  }
  throw new Error('No "**Named types.**" paragraph in README.md or docs/*.md');
}

describe('named types of the OpenAPI document', () => {
  it('names every record the README names as a component, and the component exists', () => {
    // The section's list: one bullet per area, each name in backticks.
    const bullets = namedTypesSection()
      .split('\n')
      .filter((line) => /^(- | {2})/.test(line));
    const listed = bullets.flatMap((line) => [...line.matchAll(/`([A-Z][A-Za-z]+)`/g)].map(([, name]) => name!));
    expect(listed).toEqual(
      expect.arrayContaining([
        'Idea',
        'Journey',
        'JourneyVersion',
        'Survey',
        'SurveyVersion',
        'SurveyResponse',
        'Sop',
        'Webhook',
        'Article',
        'Category',
      ]),
    );
    const missing = listed.filter((name) => !(name in document.components.schemas));
    expect(missing, 'named in the README but not a component').toEqual([]);
    const unlisted = Object.keys(document.components.schemas).filter((name) => !listed.includes(name));
    expect(unlisted, 'a component the README does not list').toEqual([]);
  });

  it('refers to each named record instead of repeating it: the compact document stays under 7,000 bytes an operation', () => {
    // 1,464,619 bytes before the records were named (every schema inlined), 617,569 after; 662,396 at 96 operations
    // (6,900 an operation, under a bound of 700,000); 776,822 at 119, with the answers most operations give alike
    // (401, 403, 415, 429, 502, 503) written once under components.responses (6,528 an operation). A bound per
    // operation, so the document may grow with the API but not with what each operation repeats.
    expect(JSON.stringify(apiDocument()).length / routes.length).toBeLessThan(7_000);
    const schemas = JSON.stringify(document.paths, (key, value) => (key === 'examples' || key === 'x-codeSamples' ? undefined : value));
    expect(schemas).toContain('"$ref":"#/components/schemas/Survey"');
    // No operation repeats a named shape in full: each refers to its component.
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(schemas.includes(JSON.stringify(schema)), `${name} is repeated inline`).toBe(false);
    }
  });

  it('exports each named type from the client as the type its operations return', () => {
    expectTypeOf<Json<'/ideas/{id}', 'get'>['data']>().toEqualTypeOf<Idea>();
    expectTypeOf<Json<'/ideas', 'get'>['pagination']>().toEqualTypeOf<Pagination>();
    expectTypeOf<Json<'/journeys/{journeyId}', 'get'>['journey']>().toEqualTypeOf<Journey>();
    expectTypeOf<Json<'/journeys/{journeyId}/versions/{versionId}', 'get'>['version']>().toEqualTypeOf<JourneyVersion>();
    expectTypeOf<Json<'/surveys/{id}/versions/{versionId}', 'get'>['version']>().toEqualTypeOf<SurveyVersion>();
    expectTypeOf<Json<'/sops/{id}', 'get'>['sop']>().toEqualTypeOf<Sop>();
    expectTypeOf<Json<'/webhooks/{id}', 'get'>['webhook']>().toEqualTypeOf<Webhook>();
    expectTypeOf<Json<'/knowledge-bank/articles/{articleId}', 'get'>['article']>().toEqualTypeOf<Article>();
    expectTypeOf<Survey['status']>().toEqualTypeOf<'draft' | 'published' | 'closed' | 'archived'>();
    // A named type is usable on its own: a value of it compiles, a wrong member does not.
    const idea = { id: 'x', title: 'T', titleAr: null, description: null, status: null, module: null } satisfies Partial<Idea>;
    // @ts-expect-error `title` is a string, never a number
    const wrong: Partial<Idea> = { title: 1 };
    expect([idea.title, wrong.title]).toEqual(['T', 1]);
  });
});
