/**
 * The remote MCP server (POST /api/v1/mcp) driven by the official SDK's own client over Streamable
 * HTTP, in both protocol eras it speaks: 2025 (`initialize`) and 2026-07-28 (no handshake). Every
 * tool call runs through the API with the caller's key, so what it does is found through REST.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newKeyId, newToken } from '../../lib/platform/auth/developer-key-token.ts';
import { DEFAULT_PERMISSIONS } from '../../lib/platform/permissions.ts';
import { call, clientFor, newKey, newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';

const MCP_URL = new URL(`${sandbox.apiUrl}/mcp`);
const ERAS = { legacy: {}, modern: { versionNegotiation: { mode: { pin: '2026-07-28' } } } } as const;

let ws: TestWorkspace;
let readOnlyKey: string;
const open: Client[] = [];

/** Every answer the server gave this test, to look at its headers. */
const answers: Response[] = [];

async function connect(era: keyof typeof ERAS, key: string, options: { host?: string; url?: URL } = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-server.test', version: '1.0.0' }, ERAS[era]);
  const transport = new StreamableHTTPClientTransport(options.url ?? MCP_URL, {
    requestInit: { headers: { Authorization: `Bearer ${key}`, 'X-Service-Workspace-Host': options.host ?? ws.host } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      answers.push(response.clone());
      return response;
    },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}

beforeAll(async () => {
  ws = await newWorkspace('mcp');
  readOnlyKey = (await newKey(ws.slug, [...DEFAULT_PERMISSIONS])).key;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  answers.length = 0;
});

describe.each(Object.keys(ERAS) as (keyof typeof ERAS)[])('the MCP server, %s era', (era) => {
  it('speaks the era the client asked for, with the JSON responses of a stateless server', async () => {
    const client = await connect(era, ws.key);
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getServerVersion()).toMatchObject({ name: 'cx-portal', version: '1.0.0' });
    await client.listTools();
    const withBodies = answers.filter((answer) => answer.status === 200);
    expect(withBodies.length).toBeGreaterThan(0);
    for (const answer of withBodies) expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answers.some((answer) => answer.headers.has('mcp-session-id'))).toBe(false);
  });

  it('lists the tools a key may use: a read-only key gets the reads, an all-permissions key the writes too', async () => {
    const [all, readOnly] = await Promise.all([connect(era, ws.key), connect(era, readOnlyKey)]);
    const [allTools, readTools] = await Promise.all([all.listTools(), readOnly.listTools()]);
    const names = (list: typeof allTools) => list.tools.map((tool) => tool.name);
    expect(names(allTools)).toEqual(expect.arrayContaining(['create_idea', 'update_idea', 'publish_knowledge_bank_article', 'list_ideas']));
    expect(names(readTools)).toEqual(expect.arrayContaining(['list_ideas', 'get_idea', 'get_survey_summary', 'search_knowledge_bank']));
    expect(names(readTools)).not.toContain('create_idea');
    expect(names(readTools).every((name) => names(allTools).includes(name))).toBe(true);
    expect(readTools.tools.length).toBeLessThan(allTools.tools.length);
    expect(readTools.tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const createIdea = allTools.tools.find((tool) => tool.name === 'create_idea')!;
    expect(createIdea.inputSchema).toMatchObject({ type: 'object', required: ['body'] });
    expect(createIdea.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('runs a write and a read through the API with the caller’s key: the idea is there through REST', async () => {
    const client = await connect(era, ws.key);
    const created = await client.callTool({ name: 'create_idea', arguments: { body: { title: `Dark mode (${era})` } } });
    expect(created.isError).toBeFalsy();
    const idea = (created.structuredContent as { data: { id: string; version: number }; etag: string }).data;
    expect((created.structuredContent as { etag: string }).etag).toBe('"1"');
    const rest = await clientFor(ws).get(`/ideas/${idea.id}`);
    expect(rest.body.data).toMatchObject({ id: idea.id, title: `Dark mode (${era})`, version: 1 });

    const changed = await client.callTool({
      name: 'update_idea',
      arguments: { id: idea.id, ifMatch: '"1"', body: { description: 'From an agent' } },
    });
    expect(changed.structuredContent).toMatchObject({ data: { description: 'From an agent', version: 2 }, etag: '"2"' });
    const read = await client.callTool({ name: 'get_idea', arguments: { id: idea.id } });
    expect(read.structuredContent).toMatchObject({ data: { id: idea.id, description: 'From an agent' } });
    expect(JSON.parse((read.content as { text: string }[])[0]!.text)).toEqual(read.structuredContent);
  });

  it("answers a missing permission and bad input with the operation's own error code and message", async () => {
    const readOnly = await connect(era, readOnlyKey);
    const refused = await readOnly.callTool({ name: 'create_idea', arguments: { body: { title: 'Not allowed' } } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({
      ok: false,
      error: 'missing_permission',
      message: 'The Developer key lacks the permission ideas:write',
    });
    expect((refused.content as { text: string }[])[0]!.text).toBe('missing_permission: The Developer key lacks the permission ideas:write');

    const client = await connect(era, ws.key);
    const invalid = await client.callTool({ name: 'create_idea', arguments: { body: { title: 'x'.repeat(161) } } });
    expect(invalid).toMatchObject({
      isError: true,
      structuredContent: { ok: false, error: 'invalid_body', issues: [{ path: 'body.title' }] },
    });
    const stale = await client.callTool({ name: 'update_idea', arguments: { id: 'no-such-idea', body: {} } });
    expect(stale.structuredContent).toMatchObject({ error: 'not_found' });
    const misplaced = await client.callTool({ name: 'create_idea', arguments: { title: 'Dark mode' } });
    expect(misplaced.structuredContent).toMatchObject({ error: 'invalid_body', message: expect.stringMatching(/goes in `body`/) });
  });
});

describe('the tool schemas, as the MCP Inspector lints them', () => {
  // Issue 37 item 15: `--strict` warned that create_idea's `customerContext.additionalProperties` ({})
  // carries no validation keyword. Every finding, warning or error, is a schema some client may reject.
  it('has no finding under --strict, for a key offered every tool', async () => {
    const storage = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
    const inspector = resolve(import.meta.dirname, '../../node_modules/.bin/mcp-inspector');
    try {
      const { stdout, stderr } = await promisify(execFile)(
        inspector,
        [
          '--cli',
          MCP_URL.href,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${ws.key}`,
          '--header',
          `X-Service-Workspace-Host: ${ws.host}`,
          '--method',
          'tools/list',
          '--strict',
        ],
        { env: { ...process.env, MCP_STORAGE_DIR: storage }, timeout: 110_000 },
      );
      const tools = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
      expect(tools).toContain('create_idea');
      expect(stderr).not.toMatch(/^(Warning|Error): tool/m);
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
    // A process of its own, loading the Inspector's bundle: seconds on a quiet machine, far more on a busy one.
  }, 120_000);
});

describe('the MCP server and its caller', () => {
  it('refuses a key the API refuses, with its answer: the client fails to connect', async () => {
    const error = await connect('legacy', 'cxk_not-a-real-key').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkHttpError);
    expect((error as SdkHttpError).status).toBe(401);
    const raw = await call('POST', '/mcp', {
      host: ws.host,
      key: 'cxk_not-a-real-key',
      headers: { Accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_ideas', arguments: {} } },
    });
    expect(raw.status).toBe(401);
    expect(raw.body).toMatchObject({ ok: false, error: 'invalid_key' });
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('makes no DynamoDB call itself: its function holds no table permission, and every read is the API’s', async () => {
    const client = await connect('legacy', ws.key);
    await client.callTool({ name: 'list_ideas', arguments: { limit: 1 } });
    expect(answers.length).toBeGreaterThan(2);
    for (const answer of answers) expect(answer.headers.get('x-sandbox-dynamodb-calls')).toBe('0');
  });

  it('counts each MCP request once against the key’s rate limit, and passes the limit on', async () => {
    const limited = await newKey(ws.slug, ['ideas:read'], { rateLimitPerMinute: 4 });
    // So the next few seconds fall inside one rate-limit window (as test/integration/platform-auth.test.ts does).
    const probe = await call('GET', '/me', { host: ws.host, key: ws.key });
    const reset = Number(probe.headers.get('ratelimit-reset'));
    if (reset < 15) await new Promise((r) => setTimeout(r, (reset + 0.5) * 1000));
    const remaining = () => answers.at(-1)!.headers.get('ratelimit-remaining');
    const client = await connect('modern', limited.key); // server/discover → GET /me: 1
    expect(remaining()).toBe('3');
    await client.listTools(); // GET /me: 2
    expect(remaining()).toBe('2');
    const first = await client.callTool({ name: 'list_ideas', arguments: {} }); // GET /ideas: 3
    expect(first.isError).toBeFalsy();
    expect(remaining()).toBe('1');
    await client.callTool({ name: 'get_idea_labels', arguments: {} }); // GET /ideas/labels: 4
    expect(remaining()).toBe('0');
    const over = await client.callTool({ name: 'list_ideas', arguments: {} });
    expect(over).toMatchObject({ isError: true, structuredContent: { ok: false, error: 'rate_limited' } });
    expect((over.content as { text: string }[])[0]!.text).toMatch(/^rate_limited: Rate limit exceeded; retry after \d+ s$/);
  });

  it('offers only the modules asked for in `?modules=`', async () => {
    const url = new URL(`${MCP_URL}?modules=ideas,knowledge-bank`);
    const client = await connect('modern', ws.key, { url });
    const { tools } = await client.listTools();
    const modules = new Set(
      tools.map((tool) => (tool.name.includes('knowledge_bank') ? 'knowledge-bank' : tool.name.includes('idea') ? 'ideas' : tool.name)),
    );
    expect([...modules].sort()).toEqual(['ideas', 'knowledge-bank']);
    const bad = await call('POST', '/mcp?modules=ideas,nothing', {
      host: ws.host,
      key: ws.key,
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_query' });
  });

  it('refuses a request a web page sent (Origin), as MCP asks of a server', async () => {
    const res = await call('POST', '/mcp', {
      host: ws.host,
      key: ws.key,
      headers: { Origin: 'https://evil.example', Accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ ok: false, error: 'origin_not_allowed' });
  });

  it('answers any caller that takes JSON, curl and Postman as well as MCP clients', async () => {
    const res = await call('POST', '/mcp', {
      host: ws.host,
      key: ws.key,
      headers: { Accept: '*/*' },
      body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_idea_labels', arguments: {} } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { ok: true } } });
  });

  it('answers GET (no stream) and DELETE (no session) with 405, as a stateless server does', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await call(method, '/mcp', { host: ws.host, key: ws.key });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('the order of checks on /mcp (docs/using-the-api.md): nothing about the request before the key', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const toolCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_ideas', arguments: {} } };
  /** What a caller without a usable key sends to learn the request's shape: each is answered 401 all the same. */
  const shapes: [string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }][] = [
    ['a body that is no JSON-RPC message', { body: { bad: 1 } }],
    ['a body that is not JSON', { rawBody: '{', headers: { 'Content-Type': 'application/json' } }],
    ['a body not sent as JSON', { rawBody: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }],
    ['a web page’s Origin', { body: ping, headers: { Origin: 'https://evil.example' } }],
    ['an Accept that takes no JSON', { body: toolCall, headers: { Accept: 'text/html' } }],
    ['an unknown tool', { body: { ...toolCall, params: { name: 'no_such_tool', arguments: {} } } }],
    ['arguments the tool does not take', { body: { ...toolCall, params: { name: 'list_ideas', arguments: { nope: 1 } } } }],
  ];

  it.each(shapes)('answers %s without a key 401 missing_key, and with a key the API refuses 401 invalid_key', async (_, request) => {
    const without = await call('POST', '/mcp', { host: ws.host, ...request });
    expect([without.status, without.body?.error], without.text).toEqual([401, 'missing_key']);
    const forged = newToken(newKeyId());
    const refused = await call('POST', '/mcp', { host: ws.host, key: forged, ...request });
    expect([refused.status, refused.body?.error], refused.text).toEqual([401, 'invalid_key']);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers the workspace first (400), before the key (401)', async () => {
    const res = await call('POST', '/mcp', { body: { bad: 1 } });
    expect([res.status, res.body?.error]).toEqual([400, 'missing_workspace_host']);
  });

  it('with a valid key, answers what the request is: 403 for an Origin, 400 for the body, 406 for the Accept, 202 for a notification', async () => {
    const as = { host: ws.host, key: ws.key };
    expect((await call('POST', '/mcp', { ...as, body: ping, headers: { Origin: 'https://evil.example' } })).body).toMatchObject({
      error: 'origin_not_allowed',
    });
    expect((await call('POST', '/mcp', { ...as, body: { bad: 1 } })).body).toMatchObject({ error: 'invalid_body' });
    const notAcceptable = await call('POST', '/mcp', { ...as, body: toolCall, headers: { Accept: 'text/html' } });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    const notification = await call('POST', '/mcp', { ...as, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    expect([notification.status, notification.text]).toEqual([202, '']);
  });

  it('refuses tool arguments that could not be sent as invalid arguments, not as the API failing', async () => {
    const client = await connect('modern', ws.key);
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['update_idea', { id: 'a', ifMatch: '"1"\r\nX-Injected: 1', body: {} }, 'invalid_header', 'ifMatch'],
      ['create_idea', { body: { title: 'x' }, idempotencyKey: 'clé' }, 'invalid_header', 'idempotencyKey'],
      ['get_idea', { id: 'x'.repeat(1_000_000) }, 'invalid_path', 'path.id'],
    ];
    for (const [name, args, error, path] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result, name).toMatchObject({ isError: true, structuredContent: { ok: false, error, issues: [{ path }] } });
    }
  });
});

describe('the read-only endpoint (POST /mcp/readonly)', () => {
  it('offers the read tools alone to a key that may write, keeps `?modules=`, and knows no write tool', async () => {
    const client = await connect('modern', ws.key, { url: new URL(`${MCP_URL}/readonly`) });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_ideas', 'get_idea', 'search_knowledge_bank']));
    expect(tools.map((tool) => tool.name)).not.toContain('create_idea');
    const read = await client.callTool({ name: 'list_ideas', arguments: { limit: 1 } });
    expect(read.isError).toBeFalsy();
    const write = await call('POST', '/mcp/readonly', {
      host: ws.host,
      key: ws.key,
      body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_idea', arguments: { body: { title: 'No' } } } },
    });
    expect(write.body).toMatchObject({ id: 9, error: { message: expect.stringMatching(/create_idea/) } });
    const before = await clientFor(ws).get('/ideas?limit=100');
    expect(before.body.data.some((idea: { title: string }) => idea.title === 'No')).toBe(false);

    const ideasOnly = await connect('legacy', ws.key, { url: new URL(`${MCP_URL}/readonly?modules=ideas`) });
    const names = (await ideasOnly.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['find_similar_ideas', 'get_idea', 'get_idea_labels', 'list_ideas']);
  });
});
