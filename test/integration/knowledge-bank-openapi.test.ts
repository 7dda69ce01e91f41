/** The OpenAPI document describes every knowledge-bank operation, its errors and every block type. */
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { call } from '../support/fixtures.ts';
import { inlineRefs } from '../support/openapi-refs.ts';

const BLOCK_TYPES = ['paragraph', 'heading', 'callout', 'quote', 'list', 'table', 'faq', 'image', 'code', 'embed', 'divider'];

describe('knowledge bank in OpenAPI', () => {
  it('lists every knowledge-bank operation under its tag with its permission, error codes and notes', async () => {
    const { body: doc } = await call('GET', '/openapi.json');
    const kbRoutes = routes.filter((route) => route.module === 'knowledge-bank');
    // 19 content operations (issue 12) and 3 of search and link checking (issue 13).
    expect(kbRoutes).toHaveLength(22);
    for (const route of kbRoutes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(op.tags).toEqual(['Knowledge Bank']);
      expect(op['x-permissions']).toEqual(route.permissions);
      for (const [status, codes] of Object.entries(route.errors ?? {})) {
        const response = op.responses[status];
        expect(response, `${route.operationId} ${status}`).toBeDefined();
        for (const [code, note] of Object.entries(codes ?? {})) {
          expect(response['x-error-codes'], `${route.operationId} ${status}`).toContain(code);
          expect(response.description, `${route.operationId} ${status}`).toContain(typeof note === 'string' ? note : `\`${code}\``);
        }
      }
    }
    const create = doc.paths['/knowledge-bank/articles'].post;
    expect(create.responses['201'].headers.Location).toBeDefined();
    expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    const draft = doc.paths['/knowledge-bank/articles/{articleId}/draft'].put;
    expect(draft.parameters.find((p: { name: string }) => p.name === 'If-Match')).toMatchObject({ required: true });
  });

  it('describes every block type in the article body, each with a description', async () => {
    const doc = inlineRefs((await call('GET', '/openapi.json')).body);
    const body = doc.paths['/knowledge-bank/articles'].post.requestBody.content['application/json'].schema;
    const variants: Array<{ properties: { type: { const: string } }; description: string }> = body.properties.blocks.items.oneOf;
    expect(variants.map((variant) => variant.properties.type.const)).toEqual(BLOCK_TYPES);
    for (const variant of variants) expect(variant.description).toMatch(/\w/);
  });
});
