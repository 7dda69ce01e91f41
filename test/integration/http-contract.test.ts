/**
 * HTTP semantics every route shares, walked over the manifest where it can be: 405 with `Allow`,
 * the API index, `Location` on every 201, Idempotency-Key on every create, and lists that answer
 * their whole documented offset range.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { call, clientFor, expectErrorEnvelope, newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await newWorkspace('contract');
  api = clientFor(ws);
});

describe('405: a known path with another method', () => {
  it('answers method_not_allowed with the methods of the path in Allow, from the manifest', async () => {
    const res = await api.delete('/me');
    expectErrorEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
    const ideas = await api.put('/ideas');
    expectErrorEnvelope(ideas, 405, 'method_not_allowed');
    expect(ideas.headers.get('allow')).toBe('GET, POST');
    const idea = await api.post('/ideas/01900000-0000-7000-8000-0000000000cc');
    expect(idea.headers.get('allow')).toBe('DELETE, GET, PATCH, PUT');
  });

  it('an unknown path is still a 404', async () => {
    expectErrorEnvelope(await api.get('/no/such/route'), 404, 'route_not_found');
  });

  it('is what the $default function answers in AWS too (the same handler, without the sandbox router)', async () => {
    const { handler } = await import('../../functions/system/not-found.ts');
    const event = (method: string, rawPath: string) =>
      ({ rawPath, headers: {}, requestContext: { http: { method }, requestId: 'r-1' } }) as never;
    const res = await handler(event('PATCH', '/api/v1/webhooks'), {} as never);
    expect(res.statusCode).toBe(405);
    expect(res.headers?.Allow).toBe('GET, POST');
    expect(JSON.parse(res.body!).error).toBe('method_not_allowed');
    expect((await handler(event('GET', '/api/v1/no/such/route'), {} as never)).statusCode).toBe(404);
  });
});

describe('GET /api/v1: the index', () => {
  it('is public and points at the OpenAPI document, which is served where it says', async () => {
    const res = await call('GET', '');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      data: { name: expect.any(String), version: expect.any(String), openapi: '/api/v1/openapi.json' },
    });
    const doc = await fetch(`${new URL(sandbox.apiUrl).origin}${res.body.data.openapi}`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await call('GET', '/')).status).toBe(200);
  });

  it('is in the manifest, public like the document', () => {
    const index = routes.find((r) => r.method === 'GET' && r.path === '');
    expect(index?.auth).toBe('none');
  });
});

describe('lists answer their whole documented offset range', () => {
  const MAX_OFFSET = 2_147_483_647;
  /** A concrete path for each list that takes `offset`; a new list fails the first test until it is added here. */
  async function listPaths(): Promise<Record<string, string>> {
    const webhook = await api.post('/webhooks', { body: { name: 'Offsets', url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] } });
    expect(webhook.status, webhook.text).toBe(201);
    return { listIdeas: '/ideas', listWebhookDeliveries: `/webhooks/${webhook.body.webhook.id}/deliveries` };
  }

  it('every list with offset answers offset=2147483647 (the documented maximum) with an empty page', async () => {
    const paths = await listPaths();
    const lists = routes.filter((r) => {
      const query = r.request?.query as { def?: { shape?: Record<string, unknown> } } | undefined;
      return query?.def?.shape && 'offset' in query.def.shape;
    });
    expect(lists.map((r) => r.operationId).sort()).toEqual(Object.keys(paths).sort());
    for (const route of lists) {
      for (const limit of [1, 100]) {
        const res = await api.get(`${paths[route.operationId]}?offset=${MAX_OFFSET}&limit=${limit}`);
        expect(res.status, `${route.operationId}: ${res.text}`).toBe(200);
        expect(res.body.pagination).toMatchObject({ offset: MAX_OFFSET, limit, hasMore: false });
      }
      expectErrorEnvelope(await api.get(`${paths[route.operationId]}?offset=${MAX_OFFSET + 1}`), 400, 'invalid_query');
    }
  });
});
