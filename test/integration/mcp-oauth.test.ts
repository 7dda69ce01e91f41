/**
 * OAuth for the MCP server (docs/mcp.md, "OAuth"), as real agents run it: the official SDK's client
 * and its OAuth provider (discovery from the 401, dynamic registration, PKCE, the resource
 * indicator, the token exchange), the person's consent given through the page's own forms without a
 * browser (test/integration/mcp-oauth-chromium.test.ts gives it in Chromium). The access token is a
 * derived key: narrower than its parent, refused by the REST API, refreshed with rotation, and dead
 * the moment its parent is revoked.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Client, type OAuthClientProvider, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listDeveloperKeys, revokeDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { adminStore, call, newKey, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { consentWithoutBrowser, workspaceOrigin } from '../support/oauth.ts';
import { workspaceHostFetch } from '../support/workspace-host-fetch.ts';

let ws: TestWorkspace;
let origin: string;
const open: Client[] = [];

/** What an agent keeps between runs, in memory: its registration, tokens and PKCE verifier. */
class MemoryProvider implements OAuthClientProvider {
  redirectUrl = 'http://127.0.0.1:9/callback';
  clientMetadata = {
    client_name: 'SDK test agent',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'ideas:read ideas:write knowledge-bank:read',
  };
  client: any;
  stored: any;
  verifier = '';
  authorizationUrl: URL | undefined;
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: unknown) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: unknown) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function transportOf(provider: OAuthClientProvider): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${origin}/api/v1/mcp`), { authProvider: provider, fetch: workspaceHostFetch });
}

async function connected(provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'mcp-oauth.test', version: '1.0.0' });
  await client.connect(transportOf(provider));
  open.push(client);
  return client;
}

const tokenRequest = (fields: Record<string, string>): Promise<{ status: number; json(): Promise<any> }> =>
  workspaceHostFetch(`${origin}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

beforeAll(async () => {
  ws = await newWorkspace('oauth');
  origin = workspaceOrigin(ws.slug);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

describe('OAuth with the MCP SDK’s own client', () => {
  it('discovers, registers, consents, exchanges, lists tools, refreshes with rotation; a parent revoked ends it (401)', async () => {
    // The person's Developer key may read and write ideas and read the knowledge bank, not more.
    const parent = await newKey(ws.slug, ['ideas:read', 'ideas:write', 'knowledge-bank:read', 'surveys:read']);
    const provider = new MemoryProvider();
    const first = new Client({ name: 'mcp-oauth.test', version: '1.0.0' });
    const transport = transportOf(provider);
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorization = provider.authorizationUrl!;
    expect(authorization.pathname).toBe('/api/v1/oauth/authorize');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('resource')).toBe(`${origin}/api/v1/mcp`);
    expect(provider.client?.client_id).toEqual(expect.any(String));

    // The person unchecks ideas:write: the agent gets the reads alone.
    const callback = await consentWithoutBrowser(authorization, parent.key, ['ideas:read', 'knowledge-bank:read']);
    expect(callback.searchParams.get('iss')).toBe(origin);
    await transport.finishAuth(callback.searchParams);
    const tokens = provider.stored;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'ideas:read knowledge-bank:read' });
    expect(tokens.access_token).toMatch(/^cxa_/);

    const client = await connected(provider);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('list_ideas');
    expect(names).not.toContain('create_idea');
    expect(names).not.toContain('get_survey_summary');
    expect((await client.callTool({ name: 'list_ideas', arguments: {} })).isError).toBeFalsy();

    // Bound to the MCP server: the REST API refuses the access token itself.
    const rest = await call('GET', '/ideas', { host: ws.host, key: tokens.access_token });
    expect([rest.status, rest.body.error]).toEqual([401, 'invalid_key']);
    expect(rest.body.message).toMatch(/MCP server/);

    // Listed under its parent by the operator.
    const listed = (await listDeveloperKeys(adminStore(), ws.slug)).find((key) => key.id === parent.id) as any;
    expect(listed.derivedKeys).toEqual([
      expect.objectContaining({ clientName: 'SDK test agent', permissions: ['ideas:read', 'knowledge-bank:read'] }),
    ]);

    // Refresh: new tokens, the old refresh token spent; presented again it revokes the family.
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: provider.client.client_id,
    });
    const next = await refreshed.json();
    expect(refreshed.status, JSON.stringify(next)).toBe(200);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    provider.stored = next;
    const again = await connected(provider);
    expect((await again.listTools()).tools.length).toBe(names.length);

    // The parent key revoked: the very next request is refused, 401 with the resource metadata to start again.
    await revokeDeveloperKey(adminStore(), parent.id);
    const refused = await workspaceHostFetch(`${origin}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${next.access_token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/api/v1/mcp"`,
    );
    const refreshAfterRevoke = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: provider.client.client_id,
    });
    expect((await refreshAfterRevoke.json()).error).toBe('invalid_grant');
  }, 120_000);

  it('revokes the whole family when a rotated-away refresh token comes back, and refuses a code used twice', async () => {
    const parent = await newKey(ws.slug, ['ideas:read']);
    const provider = new MemoryProvider();
    const transport = transportOf(provider);
    await expect(new Client({ name: 't', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await consentWithoutBrowser(provider.authorizationUrl!, parent.key);
    await transport.finishAuth(callback.searchParams);
    const clientId = provider.client.client_id;
    // The same code again: refused, and the tokens it gave are revoked.
    const reused = await tokenRequest({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: provider.verifier,
      redirect_uri: provider.redirectUrl,
      client_id: clientId,
    });
    expect([reused.status, (await reused.json()).error]).toEqual([400, 'invalid_grant']);
    const stale = provider.stored;
    const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: stale.refresh_token, client_id: clientId });
    expect((await rotated.json()).error).toBe('invalid_grant');

    // A fresh grant: rotate once, then replay the first refresh token.
    const second = new MemoryProvider();
    const secondTransport = transportOf(second);
    await expect(new Client({ name: 't', version: '1' }).connect(secondTransport)).rejects.toBeInstanceOf(UnauthorizedError);
    await secondTransport.finishAuth((await consentWithoutBrowser(second.authorizationUrl!, parent.key)).searchParams);
    const original = second.stored;
    const id = second.client.client_id;
    const next = await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: original.refresh_token, client_id: id })).json();
    expect(next.access_token, JSON.stringify(next)).toMatch(/^cxa_/);
    const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: original.refresh_token, client_id: id });
    expect((await replay.json()).error).toBe('invalid_grant');
    // The family is revoked: the newest refresh token and access token are dead too.
    const afterReplay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: next.refresh_token, client_id: id });
    expect((await afterReplay.json()).error).toBe('invalid_grant');
    second.stored = next;
    await expect(connected(second)).rejects.toThrow();
  }, 120_000);

  it('publishes the metadata documents and refuses a request that is not PKCE S256 for this resource', async () => {
    const prm: any = await (await workspaceHostFetch(`${origin}/.well-known/oauth-protected-resource/api/v1/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${origin}/api/v1/mcp`, authorization_servers: [origin] });
    expect(await (await workspaceHostFetch(`${origin}/.well-known/oauth-protected-resource`)).json()).toEqual(prm);
    const as: any = await (await workspaceHostFetch(`${origin}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: origin,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      registration_endpoint: `${origin}/api/v1/oauth/register`,
    });
    const registered: any = await (
      await workspaceHostFetch(`${origin}/api/v1/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://agent.example/cb'], client_name: 'Agent' }),
      })
    ).json();
    const authorize = (params: Record<string, string>) =>
      workspaceHostFetch(
        `${origin}/api/v1/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: registered.client_id,
          redirect_uri: 'https://agent.example/cb',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
          resource: `${origin}/api/v1/mcp`,
          state: 's1',
          ...params,
        })}`,
      );
    expect((await authorize({})).status).toBe(200);
    const plain = await authorize({ code_challenge_method: 'plain' });
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const elsewhere = await authorize({ resource: 'https://evil.example/mcp' });
    expect(new URL(elsewhere.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    // A redirect URI not exactly the client's is never redirected to: the person reads why, in their
    // language, on a page of the consent page's own kind (no script, no frame), not a JSON envelope.
    const foreign = await authorize({ redirect_uri: 'https://agent.example/cb/other' });
    expect([foreign.status, foreign.headers.get('content-type'), foreign.headers.get('location')]).toEqual([
      400,
      'text/html; charset=utf-8',
      null,
    ]);
    expect(foreign.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await foreign.text();
    expect(page).toContain('<html lang="en"');
    expect(page).toContain('Go back to the app and connect again');
    expect(page).toContain('<code>invalid_request</code>');
    expect(page).not.toContain('<script');
    const unknown = await authorize({ client_id: '8d0f4e0a-1c2b-4d3e-9f00-000000000000', lang: 'ar' });
    expect(unknown.status).toBe(401);
    const arabic = await unknown.text();
    expect(arabic).toContain('<html lang="ar" dir="rtl"');
    expect(arabic).toContain('هذا التطبيق غير معروف');
  });

  it('brakes a source address that registers too many clients, not another source', async () => {
    const limit = Number(process.env.OAUTH_REGISTRATIONS_PER_WINDOW);
    const windowSeconds = Number(process.env.RATE_LIMIT_WINDOW_SECONDS);
    const windowNow = () => Math.floor(Date.now() / 1000 / windowSeconds);
    // Registrations are counted per window: a run that crossed a window's end is run again whole, from
    // an address of its own (the new window already counts the crossed run's last registrations).
    for (let attempt = 0; attempt < 3; attempt++) {
      const source = `127.0.0.${2 + attempt}`;
      const started = windowNow();
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i <= limit; i++) {
        const res = await registerFrom(source, { redirect_uris: ['https://flood.example/cb'], client_name: `Flood ${i}` });
        statuses.push(res.status);
        retryAfter = res.headers['retry-after'] as string | undefined;
      }
      if (windowNow() !== started) continue;
      expect(statuses).toEqual([...Array(limit).fill(201), 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // Another address (this test's own, 127.0.0.1) still registers.
      expect((await registerFrom('127.0.0.1', { redirect_uris: ['https://agent.example/cb'] })).status).toBe(201);
      return;
    }
    throw new Error('Three runs each crossed a rate-limit window');
  }, 120_000);
});

/** POST /oauth/register from a given loopback address (Linux routes all of 127.0.0.0/8 to lo): the sandbox reads the socket's. */
function registerFrom(localAddress: string, body: unknown): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const url = new URL(`${workspaceOrigin(ws.slug)}/api/v1/oauth/register`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { Host: url.host, 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
