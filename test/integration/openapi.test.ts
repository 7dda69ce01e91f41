/** The OpenAPI document: served by the API, valid OpenAPI 3.1, and describing every manifest route. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { call } from '../support/fixtures.ts';

describe('GET /openapi.json', () => {
  it('serves a valid OpenAPI 3.1 document without a key or workspace', async () => {
    const res = await call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route with its permissions, parameters and error responses', async () => {
    const { body: doc } = await call('GET', '/openapi.json');
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(route.operationId);
      expect(op.responses[String(route.response.status)]).toBeDefined();
      if (route.auth !== 'none') {
        expect(op['x-permissions']).toEqual(route.permissions);
        for (const status of ['400', '401', '403', '404', '429', '502']) {
          expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
        }
        expect(op.parameters.map((p: { name: string }) => p.name)).toContain('X-Service-Workspace-Host');
      }
    }
  });
});
