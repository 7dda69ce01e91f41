/**
 * The document says what the API does, where an independent tester found it did not (issue 27,
 * item 18): a request the API refuses breaks the document's schema too, and each parameter and
 * field is described by its own words, not by a filter's that was registered on a schema every
 * area shares.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as shared from '../../lib/platform/schemas.ts';

type JsonSchema = Record<string, unknown>;

/** What the platform's shared schemas say of themselves before any area is loaded. */
const sharedSchemas = Object.entries(shared as Record<string, unknown>).filter(
  ([, value]) => typeof value === 'object' && value !== null && '_zod' in value,
) as [string, z.ZodMiniType][];
const ownWords = new Map(sharedSchemas.map(([name, schema]) => [name, JSON.stringify(z.globalRegistry.get(schema) ?? null)]));

// Loaded after the snapshot above: the areas register their descriptions as they load.
const { apiDocument } = await import('../../lib/api-document.ts');
const { routes } = await import('../../lib/manifest.ts');
const document = apiDocument() as {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; description?: string }[]; requestBody?: any }>>;
  components: { schemas: Record<string, JsonSchema> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
formatsPlugin.default(ajv);
ajv.addSchema({ $id: 'document', components: document.components });

/** Whether the document's request body schema of the operation takes `body`. */
function documentTakes(operationId: string, body: unknown): boolean {
  const route = routes.find((r) => r.operationId === operationId)!;
  const schema = document.paths[route.path]![route.method.toLowerCase()]!.requestBody.content['application/json'].schema;
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/')));
  return validate(body) as boolean;
}

function apiTakes(operationId: string, body: unknown): boolean {
  return routes.find((r) => r.operationId === operationId)!.request!.body!.safeParse(body).success;
}

describe('the document refuses what the API refuses', () => {
  const categoryId = '0195f2a0-7c1e-7000-8000-000000000001';
  const refused: [string, unknown][] = [
    ['createKnowledgeBankArticle', { categoryId, titleEn: 'Refunds', tags: [''] }],
    ['createKnowledgeBankArticle', { categoryId, titleEn: 'Refunds', tags: ['   '] }],
    ['createKnowledgeBankArticle', { categoryId, titleEn: 'Refunds', tags: ['refunds', '\t\n'] }],
    ['updateKnowledgeBankArticle', { tags: [' '] }],
    ['createKnowledgeBankArticle', { categoryId, titleEn: '  ' }],
    ['createKnowledgeBankCategory', { nameEn: ' ' }],
  ];

  it.each(refused)('%s %j', (operationId, body) => {
    expect(apiTakes(operationId, body), 'the API refuses it').toBe(false);
    expect(documentTakes(operationId, body), 'so the document must refuse it too').toBe(false);
  });

  it('and takes what the API takes', () => {
    const body = { categoryId, titleEn: 'Refunds', tags: ['refunds', ' money back ', 'استرداد'] };
    expect([apiTakes('createKnowledgeBankArticle', body), documentTakes('createKnowledgeBankArticle', body)]).toEqual([true, true]);
  });
});

describe("each parameter and field in the document's own words", () => {
  it("keeps the platform's shared schemas as the platform wrote them: an area describes its own copy", () => {
    for (const [name, schema] of sharedSchemas) {
      expect(JSON.stringify(z.globalRegistry.get(schema) ?? null), `${name} was re-described by an area`).toBe(ownWords.get(name));
    }
  });

  it('describes no path parameter with the words of a query filter (GET /surveys/{id}/responses: `id` is not "pinned to this version")', () => {
    const filterWords = new Set(
      Object.values(document.paths).flatMap((operations) =>
        Object.values(operations).flatMap((operation) =>
          (operation.parameters ?? []).filter((p) => p.in === 'query' && p.description).map((p) => p.description),
        ),
      ),
    );
    const borrowed = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((p) => p.in === 'path' && p.description && filterWords.has(p.description))
          .map((p) => `${method.toUpperCase()} ${path} ${p.name}: ${p.description}`),
      ),
    );
    expect(borrowed).toEqual([]);
    const list = document.paths['/surveys/{id}/responses']!.get!.parameters!;
    expect(list.find((p) => p.name === 'id')?.description ?? '').not.toMatch(/version/);
  });
});
