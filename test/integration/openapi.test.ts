/** The OpenAPI document: served by the API, valid OpenAPI 3.1, and describing every manifest route. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { call, sandbox } from '../support/fixtures.ts';

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
      // The API root ('' in the manifest) is `/` below the server URL.
      const op = doc.paths[route.path || '/']?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      // An answer most operations give alike is written once, under components.responses.
      const responseOf = (status: string) => {
        const response = op.responses[status];
        return response?.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;
      };
      expect(op.operationId).toBe(route.operationId);
      expect(op.responses[String(route.response.status)]).toBeDefined();
      if (route.auth !== 'none') {
        expect(op['x-permissions']).toEqual(route.permissions);
        // Busy (503 service_busy) is a platform answer every operation with a key can give, and says when to retry.
        expect(responseOf('503')?.['x-error-codes'], `${route.operationId} 503`).toContain('service_busy');
        expect(responseOf('503').headers?.['Retry-After'], `${route.operationId} 503 Retry-After`).toBeDefined();
        for (const status of ['400', '401', '403', '404', '429', '502', '503']) {
          let schema = responseOf(status).content['application/json'].schema;
          const members = route.errorMembers?.[Number(status) as keyof typeof route.errorMembers];
          // A protocol that answers some refusals in its own body (MCP's JSON-RPC error at 400) declares it in
          // the manifest (response.otherAnswers): the status then takes either body, the envelope first.
          const protocolBody = route.response.otherAnswers?.[Number(status) as 400]?.body;
          if (protocolBody) {
            expect(schema.anyOf, `${route.operationId} ${status}`).toHaveLength(2);
            expect(schema.anyOf[1].$ref, `${route.operationId} ${status}`).toMatch(/^#\/components\/schemas\/\w+$/);
            schema = schema.anyOf[0];
          }
          if (!members) expect(schema.$ref, status).toBe('#/components/schemas/Error');
          else {
            // The envelope plus the members this status declares, nothing else.
            expect(Object.keys(schema.properties).sort(), status).toEqual(
              [...new Set(['ok', 'error', 'message', 'issues', ...Object.keys(members)])].sort(),
            );
            expect(schema.required, status).toEqual(['ok', 'error', 'message']);
            expect(schema.additionalProperties, status).toBe(false);
          }
        }
        expect(op.parameters.map((p: { name: string }) => p.name)).toContain('X-Service-Workspace-Host');
      }
    }
  });
});

describe('the document says what the API does', () => {
  async function document() {
    return (await call('GET', '/openapi.json')).body;
  }

  it('gives integer defaults as integers', async () => {
    const doc = await document();
    const params = doc.paths['/ideas'].get.parameters as { name: string; schema: { type: string; default: unknown } }[];
    expect(params.find((p) => p.name === 'limit')?.schema).toMatchObject({ type: 'integer', default: 25 });
    expect(params.find((p) => p.name === 'offset')?.schema).toMatchObject({ type: 'integer', default: 0 });
  });

  it('describes every tag, and names a contact and a license', async () => {
    const doc = await document();
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w/);
    expect(doc.info.contact.name).toMatch(/\w/);
    expect(doc.info.license.name).toMatch(/\w/);
  });

  it('requires at least one property in PATCH /webhooks/{id}, as the API does', async () => {
    const doc = await document();
    expect(doc.paths['/webhooks/{id}'].patch.requestBody.content['application/json'].schema.minProperties).toBe(1);
  });

  it('states "a step needs titleEn, titleAr or body" as JSON Schema', async () => {
    const doc = await document();
    const step = doc.paths['/sops'].post.requestBody.content['application/json'].schema.properties.steps.items;
    expect(step.anyOf.map((branch: { required: string[] }) => branch.required[0])).toEqual(['titleEn', 'titleAr', 'body']);
  });

  it('offers the sandbox and a workspace host as servers, with variables', async () => {
    const doc = await document();
    const urls = doc.servers.map((s: { url: string; variables: Record<string, { default: string }> }) =>
      s.url.replace(/\{(\w+)\}/g, (_: string, name: string) => s.variables[name]!.default),
    );
    // The sandbox first: where a reader starts; the reference page's samples follow the same order.
    expect(urls).toEqual(['http://127.0.0.1:3000/api/v1', 'https://your-workspace.example.com/api/v1']);
    // The sandbox server, with this sandbox's port, is where the tests reach the API.
    const sandboxServer = doc.servers[0].url.replace('{port}', new URL(sandbox.apiUrl).port);
    expect(sandboxServer).toBe(sandbox.apiUrl);
  });
});
