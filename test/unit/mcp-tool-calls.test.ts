/** A tool call as one request to the API, and the API's answer as the tool's result (lib/mcp/tool-calls.ts). */
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { callerOf } from '../../lib/mcp/api-calls.ts';
import { isRefusal, requestOf, resultOf } from '../../lib/mcp/tool-calls.ts';
import { agentTools } from '../../lib/mcp/tools.ts';
import { newKeyId, newToken } from '../../lib/platform/auth/developer-key-token.ts';
import type { ApiError } from '../../lib/platform/errors.ts';

const tools = new Map(agentTools(routes).map((tool) => [tool.name, tool]));
const tool = (name: string) => tools.get(name)!;
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body, headers: new Headers(headers) });

describe('requestOf', () => {
  it('fills the route template, puts the query in the query string and If-Match and Idempotency-Key in headers', () => {
    expect(requestOf(tool('update_idea'), { id: 'abc_1', ifMatch: '"3"', body: { status: 'planned' } })).toEqual({
      method: 'PATCH',
      path: '/ideas/abc_1',
      body: { status: 'planned' },
      headers: { 'If-Match': '"3"' },
    });
    expect(requestOf(tool('list_ideas'), { limit: 5, cursor: 'c1' })).toMatchObject({ method: 'GET', path: '/ideas?limit=5&cursor=c1' });
    expect(requestOf(tool('create_idea'), { body: { title: 'x' }, idempotencyKey: 'k-1' })).toMatchObject({
      headers: { 'Idempotency-Key': 'k-1' },
    });
  });

  it('keeps every path argument inside its own segment, so no argument reaches another route', () => {
    expect(requestOf(tool('get_idea'), { id: '../me' })).toMatchObject({ path: '/ideas/..%2Fme' });
    expect(requestOf(tool('get_idea'), { id: 'a?b#c' })).toMatchObject({ path: '/ideas/a%3Fb%23c' });
    for (const id of ['..', '.', '', undefined, { id: 1 }]) {
      const refused = requestOf(tool('get_idea'), { id });
      expect(isRefusal(refused) && refused.error, JSON.stringify(id)).toBe('invalid_path');
    }
  });

  it('refuses arguments the tool does not take, pointing at `body` when the tool takes one', () => {
    const refused = requestOf(tool('create_idea'), { title: 'Dark mode' });
    expect(refused).toMatchObject({ ok: false, error: 'invalid_body', issues: [{ path: 'arguments' }] });
    expect(isRefusal(refused) && refused.message).toMatch(/"title".*goes in `body`/);
    expect(requestOf(tool('list_ideas'), { limit: { many: true } })).toMatchObject({ error: 'invalid_query' });
  });

  it('leaves every other check to the API: a body it would refuse is sent as it is', () => {
    expect(requestOf(tool('create_idea'), { body: { title: '' } })).toMatchObject({ body: { title: '' } });
    expect(requestOf(tool('create_idea'), {})).toMatchObject({ body: null });
  });
});

describe('resultOf', () => {
  it("answers a success as the response body, with the record's ETag as `etag`", () => {
    const result = resultOf(answer(200, { ok: true, data: { id: 'a' } }, { ETag: '"2"' }));
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ ok: true, data: { id: 'a' }, etag: '"2"' });
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it("answers a refusal as a tool error carrying the API's envelope, code first", () => {
    const envelope = {
      ok: false,
      error: 'invalid_body',
      message: 'body.title: is required',
      issues: [{ path: 'body.title', message: 'is required' }],
    };
    const result = resultOf(answer(400, envelope));
    expect(result).toMatchObject({ isError: true, structuredContent: envelope });
    expect(result.content[0]!.text).toBe('invalid_body: body.title: is required\n- body.title: is required');
  });

  it("answers API Gateway's own refusals (no envelope) by their status, inventing nothing", () => {
    expect(resultOf(answer(503, { message: 'Service Unavailable' })).structuredContent).toEqual({
      ok: false,
      error: 'internal_error',
      message: 'The API answered 503',
    });
    expect(resultOf(answer(429, { message: 'Too Many Requests' }, { 'Retry-After': '2' })).structuredContent).toMatchObject({
      error: 'rate_limited',
      message: 'The API answered 429; retry after 2 s',
    });
  });
});

describe('callerOf', () => {
  const key = newToken(newKeyId());

  it("passes the caller's key and selected workspace on", async () => {
    expect(await callerOf({ authorization: `Bearer ${key}`, 'x-service-workspace-host': 'acme.localhost' })).toEqual({
      authorization: `Bearer ${key}`,
      workspace: 'acme',
    });
  });

  it('selects the workspace of a workspace host the caller called on', async () => {
    expect((await callerOf({ host: 'acme.localhost:3000', authorization: `Bearer ${key}` })).workspace).toBe('acme');
  });

  it('refuses as the API first does, without a call: no workspace (400), then no key or a malformed one (401)', async () => {
    const refusal = async (headers: Record<string, string>) => {
      try {
        await callerOf(headers);
        return undefined;
      } catch (error) {
        return [(error as ApiError).status, (error as ApiError).code];
      }
    };
    expect(await refusal({ host: '127.0.0.1:3000', authorization: `Bearer ${key}` })).toEqual([400, 'missing_workspace_host']);
    expect(await refusal({ 'x-service-workspace-host': 'a..b' })).toEqual([400, 'invalid_header']);
    expect(await refusal({ 'x-service-workspace-host': 'acme' })).toEqual([401, 'missing_key']);
    expect(await refusal({ 'x-service-workspace-host': 'acme', authorization: 'Bearer cxk_not-a-key' })).toEqual([401, 'invalid_key']);
  });
});

describe('requestOf refuses as invalid arguments what could not be sent', () => {
  it('an ifMatch with CR/LF or a letter outside ASCII, a non-ASCII idempotencyKey', () => {
    expect(requestOf(tool('update_idea'), { id: 'a', ifMatch: '"1"\r\nX-Evil: 1', body: {} })).toMatchObject({
      error: 'invalid_header',
      issues: [{ path: 'ifMatch' }],
    });
    expect(requestOf(tool('update_idea'), { id: 'a', ifMatch: '"١"', body: {} })).toMatchObject({ error: 'invalid_header' });
    expect(requestOf(tool('create_idea'), { body: {}, idempotencyKey: 'clé-1' })).toMatchObject({
      error: 'invalid_header',
      issues: [{ path: 'idempotencyKey', message: 'must be 1-255 visible ASCII characters, e.g. a UUID' }],
    });
  });

  it('a path or query argument that makes the address longer than API Gateway takes, or that is no Unicode text', () => {
    expect(requestOf(tool('get_idea'), { id: 'x'.repeat(1_000_000) })).toMatchObject({
      error: 'invalid_path',
      issues: [{ path: 'path.id', message: expect.stringMatching(/too long/) }],
    });
    expect(requestOf(tool('search_knowledge_bank'), { q: 'é'.repeat(5_000) })).toMatchObject({
      error: 'invalid_query',
      issues: [{ path: 'query.q' }],
    });
    expect(requestOf(tool('get_idea'), { id: '\ud800' })).toMatchObject({ error: 'invalid_path' });
  });
});
