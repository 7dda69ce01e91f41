/**
 * The shared middleware chain on a route that needs a module, a permission and a JSON body,
 * invoked as Lambda would invoke it, against the sandbox's real DynamoDB Local.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { changeModules } from '../../lib/admin/workspaces.ts';
import type { LambdaHandler } from '../../lib/platform/http/api-handler.ts';
import { defineRoute } from '../../lib/platform/route.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';
import { adminStore, newKey, newWorkspace, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';

const route = defineRoute({
  operationId: 'testWrite',
  method: 'POST',
  path: '/test',
  handler: 'functions/test.ts',
  tag: 'Ideas',
  summary: 'test',
  module: 'ideas',
  permissions: ['ideas:write'],
  request: {
    body: z.strictObject({ title: z.string().check(z.minLength(1), z.maxLength(5)) }),
    query: z.strictObject({ mode: z.optional(z.enum(['a', 'b'])) }),
  },
  response: { status: 201, body: z.object({ ok: z.literal(true), title: z.string() }) },
  data: 'write',
});

let handler: LambdaHandler;
let failing: LambdaHandler;
let ws: TestWorkspace;

beforeAll(async () => {
  useSandboxEnvironment();
  const { apiHandler } = await import('../../lib/platform/http/api-handler.ts');
  handler = apiHandler(route).handler(async ({ body }) => ({ body: { ok: true, title: body.title } }));
  failing = apiHandler(route).handler(async () => {
    throw new Error('db password is hunter2 at /var/task/index.js');
  });
  ws = await newWorkspace('chain');
});

function invoke(fn: LambdaHandler, opts: { key?: string; body?: string; query?: Record<string, string>; contentType?: string }) {
  return fn(
    apiEvent({
      method: 'POST',
      headers: {
        'x-service-workspace-host': ws.host,
        authorization: `Bearer ${opts.key ?? ws.key}`,
        'content-type': opts.contentType ?? 'application/json',
      },
      body: opts.body,
      query: opts.query,
    }),
    lambdaContext(),
  );
}

const parsed = (res: { body?: string }) => JSON.parse(res.body!);

describe('middleware chain', () => {
  it('runs the handler with the validated body and the route success status', async () => {
    const res = await invoke(handler, { body: '{"title":"hi"}' });
    expect(res.statusCode).toBe(201);
    expect(parsed(res)).toEqual({ ok: true, title: 'hi' });
  });

  it('checks the workspace header first: a malformed one is 400 invalid_header even with no key and a malformed body', async () => {
    const res = await handler(
      apiEvent({ method: 'POST', headers: { 'x-service-workspace-host': '..', 'content-type': 'application/json' }, body: '{"title":' }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ ok: false, error: 'invalid_header' });
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    const res = await invoke(handler, { body: '{"title":' });
    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ ok: false, error: 'invalid_json' });
  });

  it('decodes a base64-encoded body (how API Gateway sends a type it does not take for text) strictly: not UTF-8 is 400 invalid_json', async () => {
    const event = (bytes: Buffer) => ({
      ...apiEvent({
        method: 'POST',
        headers: { 'x-service-workspace-host': ws.host, authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' },
        body: bytes.toString('base64'),
      }),
      isBase64Encoded: true,
    });
    const ok = await handler(event(Buffer.from('{"title":"héé"}')), lambdaContext());
    expect([ok.statusCode, parsed(ok)]).toEqual([201, { ok: true, title: 'héé' }]);
    const bad = await handler(event(Buffer.from([...Buffer.from('{"title":"h'), 0xc3, 0x28, ...Buffer.from('"}')])), lambdaContext());
    expect(bad.statusCode).toBe(400);
    expect(parsed(bad)).toMatchObject({ ok: false, error: 'invalid_json', message: 'The request body is not valid UTF-8' });
  });

  it('answers 400 invalid_body with every issue for a body that breaks the schema, and for unknown fields', async () => {
    const res = await invoke(handler, { body: '{"title":"too long","extra":1}' });
    expect(res.statusCode).toBe(400);
    const body = parsed(res);
    expect(body.error).toBe('invalid_body');
    expect(body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['body', 'body.title']);
  });

  it('answers 400 invalid_body for a missing body', async () => {
    const res = await invoke(handler, {});
    expect(res.statusCode).toBe(400);
    expect(parsed(res).error).toBe('invalid_body');
  });

  it('answers 415 unsupported_media_type for a body that is not sent as JSON, and takes JSON with a charset', async () => {
    const form = await invoke(handler, { body: 'title=hi', contentType: 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    expect(parsed(form)).toEqual({
      ok: false,
      error: 'unsupported_media_type',
      message: 'The body must be sent with Content-Type: application/json, not application/x-www-form-urlencoded',
    });
    const text = await invoke(handler, { body: '{"title":"hi"}', contentType: 'text/plain' });
    expect(text.statusCode).toBe(415);
    const charset = await invoke(handler, { body: '{"title":"hi"}', contentType: 'application/json; charset=utf-8' });
    expect(charset.statusCode).toBe(201);
    expect(parsed(charset)).toEqual({ ok: true, title: 'hi' });
  });

  it('answers 400 invalid_query for an unknown or invalid query parameter', async () => {
    expect(parsed(await invoke(handler, { body: '{"title":"hi"}', query: { mode: 'c' } })).error).toBe('invalid_query');
    expect(parsed(await invoke(handler, { body: '{"title":"hi"}', query: { other: '1' } })).error).toBe('invalid_query');
  });

  it('answers 403 missing_permission when the key lacks the route permission (before looking at the body)', async () => {
    const readOnly = await newKey(ws.slug, ['ideas:read']);
    const res = await invoke(handler, { key: readOnly.key, body: '{"title":' });
    expect(res.statusCode).toBe(403);
    expect(parsed(res)).toMatchObject({ error: 'missing_permission' });
    expect(parsed(res).message).toContain('ideas:write');
  });

  it('answers 403 module_disabled while the module is off, for every key', async () => {
    const local = await newWorkspace('chain-mod');
    await changeModules(adminStore(), local.slug, { disable: ['ideas'] });
    const res = await handler(
      apiEvent({
        method: 'POST',
        headers: { 'x-service-workspace-host': local.host, authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
        body: '{"title":"hi"}',
      }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(403);
    expect(parsed(res).error).toBe('module_disabled');
    await changeModules(adminStore(), local.slug, { enable: ['ideas'] });
  });

  it('answers 502 internal_error without any internal detail when the handler fails unexpectedly', async () => {
    const res = await invoke(failing, { body: '{"title":"hi"}' });
    expect(res.statusCode).toBe(502);
    expect(parsed(res)).toEqual({ ok: false, error: 'internal_error', message: 'The service could not complete the request' });
    expect(res.body).not.toMatch(/hunter2|index\.js/);
    expect(res.headers?.['X-Request-Id']).toBeTruthy();
  });
});
