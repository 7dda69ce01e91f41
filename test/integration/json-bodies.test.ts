/**
 * What a body must be, on every operation that takes one, over HTTP through the sandbox: JSON of the
 * schema's shape (a JSON string is a body of the wrong shape, 400 `invalid_body`, not a 415), and
 * the text the client sent. Invalid UTF-8 and lone surrogates are refused with 400 `invalid_json`
 * and change nothing, rather than stored changed (issue 27, items 12 and 16).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../lib/manifest.ts';
import { onWorkspaceHost, type RouteDefinition } from '../../lib/platform/route.ts';
import { clientFor, expectErrorEnvelope, newWorkspace } from '../support/fixtures.ts';

let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  api = clientFor(await newWorkspace('bodies'));
});

/** A path of the route whose parameters its schema accepts (a fresh UUID, else a plain id), so only the body can be refused. */
function pathOf(route: RouteDefinition): string {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const values: Record<string, string> = {};
  for (const name of names) {
    values[name] = [randomUUID(), '1', 'x1'].find(
      (value) =>
        z.safeParse(route.request!.params!, { ...Object.fromEntries(names.map((n) => [n, values[n] ?? randomUUID()])), [name]: value })
          .success,
    )!;
  }
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('a JSON string as the body', () => {
  // OAuth's routes take forms (application/x-www-form-urlencoded) and answer a JSON body 415: test/integration/mcp-oauth.test.ts.
  const withBody = routes.filter((route) => route.request?.body !== undefined && !onWorkspaceHost(route));

  it('is 400 invalid_body on every operation that takes a body, as a number or a boolean is (not a 415)', async () => {
    expect(withBody.length).toBeGreaterThanOrEqual(23);
    for (const route of withBody) {
      const path = pathOf(route);
      const answers = await Promise.all(
        ['"AAA"', '42', 'true'].map(async (rawBody) => ({
          rawBody,
          res: await api[route.method.toLowerCase() as 'post'](path, { rawBody, headers: { 'If-Match': '"1"' } }),
        })),
      );
      for (const { rawBody, res } of answers) {
        expect([res.status, res.body?.error], `${route.operationId} ${rawBody}: ${res.text}`).toEqual([400, 'invalid_body']);
        expect(res.body.message, route.operationId).not.toMatch(/Content-Type/);
      }
    }
    // Each operation's function is loaded on its first request, as a cold start: about a second each on a busy machine.
  }, 180_000);
});

describe('a JSON value that is not an object as the body', () => {
  // OAuth's routes take forms (application/x-www-form-urlencoded) and answer a JSON body 415: test/integration/mcp-oauth.test.ts.
  const withBody = routes.filter((route) => route.request?.body !== undefined && !onWorkspaceHost(route));

  // Issue 37 item 5: `null` reached a refinement of the journey content body that reads `.content` (a 502).
  it('is 400 invalid_body on every operation that takes a body, for null, [], 0 and "", saying the body must be an object', async () => {
    expect(withBody.length).toBeGreaterThanOrEqual(23);
    const answered: string[] = [];
    for (const route of withBody) {
      const path = pathOf(route);
      const answers = await Promise.all(
        ['null', '[]', '0', '""'].map(async (rawBody) => ({
          rawBody,
          res: await api[route.method.toLowerCase() as 'post'](path, { rawBody, headers: { 'If-Match': '"1"' } }),
        })),
      );
      for (const { rawBody, res } of answers) {
        answered.push(`${route.operationId} ${rawBody}: ${res.status} ${res.body?.error} ${JSON.stringify(res.body?.issues)}`);
      }
    }
    const refusal = (line: string) => / 400 invalid_body \[\{"path":"body","message":"must be a JSON object[^"]*"\}\]$/.test(line);
    expect(answered.filter((line) => !refusal(line))).toEqual([]);
  }, 180_000);
});

describe('an operation that takes no body', () => {
  it('ignores one, however malformed', async () => {
    const idea = await api.post('/ideas', { body: { title: 'Deleted with a body' } });
    const res = await api.delete(`/ideas/${idea.body.data.id}`, { rawBody: '{"broken \ud800' });
    expect(res.status, res.text).toBe(200);
  });
});

describe('a body that is not the text the client sent', () => {
  async function ideaTotal(): Promise<number> {
    return (await api.get('/ideas')).body.pagination.total;
  }

  it('refuses bytes that are not UTF-8 with 400 invalid_json, and stores nothing', async () => {
    const before = await ideaTotal();
    for (const rawBody of [
      bytes('{"title":"bad ', [0xff, 0xfe], '"}'),
      // A surrogate encoded in UTF-8 (CESU-8) and an overlong encoding are not UTF-8 either.
      bytes('{"title":"bad ', [0xed, 0xa0, 0x80], '"}'),
      bytes('{"title":"bad ', [0xc0, 0xaf], '"}'),
    ]) {
      expectErrorEnvelope(await api.post('/ideas', { rawBody }), 400, 'invalid_json');
    }
    expect(await ideaTotal()).toBe(before);
  });

  it('refuses a lone surrogate, in a value or a key, with 400 invalid_json, and stores nothing', async () => {
    const before = await ideaTotal();
    for (const rawBody of ['{"title":"bad \\ud800"}', '{"title":"bad \\udc00 end"}', '{"title":"ok","customerContext":{"\\ud83d":"x"}}']) {
      const res = await api.post('/ideas', { rawBody });
      expectErrorEnvelope(res, 400, 'invalid_json');
      expect(res.body.message).toMatch(/lone surrogate at body\./);
    }
    expect(await ideaTotal()).toBe(before);
  });

  it('takes a surrogate pair, escaped or not, and U+FFFD when escaped, and stores them as sent', async () => {
    const escaped = await api.post('/ideas', { rawBody: '{"title":"smile \\ud83d\\ude00 \\ufffd"}' });
    expect(escaped.status, escaped.text).toBe(201);
    expect(escaped.body.data.title).toBe('smile 😀 \uFFFD');
    const raw = await api.post('/ideas', { rawBody: utf8('{"title":"smile 😀 مرحبا"}') });
    expect(raw.status, raw.text).toBe(201);
    expect((await api.get(`/ideas/${raw.body.data.id}`)).body.data.title).toBe('smile 😀 مرحبا');
  });

  it('refuses U+FFFD sent as such: it is what bytes that are not UTF-8 arrive as', async () => {
    const before = await ideaTotal();
    const res = await api.post('/ideas', { rawBody: utf8('{"title":"bad \uFFFD"}') });
    expectErrorEnvelope(res, 400, 'invalid_json');
    expect(res.body.message).toMatch(/\\ufffd/);
    expect(await ideaTotal()).toBe(before);
  });
});
