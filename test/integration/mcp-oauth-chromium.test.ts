/**
 * The consent page in a real browser (headless Chromium from Debian's package, driven by
 * puppeteer-core): a client known by its Client ID Metadata Document (served here on loopback, which
 * the sandbox's outbound guard allows as it does webhook receivers), the page filled in and
 * submitted as a person does, without any script of ours, then the code exchanged, `tools/list`,
 * a refresh, the parent key revoked, and 401. Without Chromium this file says so and skips, except
 * in CI (`CI` set), where .ci/run installs it and a missing browser fails the run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { withChromium } from '../../lib/admin/headless-chromium.ts';
import { chromiumAvailable } from '../support/chromium.ts';
import { adminStore, newKey, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { workspaceOrigin } from '../support/oauth.ts';
import { workspaceHostFetch } from '../support/workspace-host-fetch.ts';

const available = chromiumAvailable();
if (!available && process.env.CI) throw new Error('CI: no `chromium` binary, and the consent page must be looked at in one');
if (!available)
  console.warn('SKIPPED mcp-oauth-chromium: no `chromium` binary (apt-get install -y chromium), the consent page was not looked at');

let ws: TestWorkspace;
let origin: string;
let client: Server;
let clientBase: string;
const callbacks: URLSearchParams[] = [];

beforeAll(async () => {
  ws = await newWorkspace('oauthbrowser');
  origin = workspaceOrigin(ws.slug);
  // The agent's own site: its metadata document, and the callback the browser comes back to.
  client = createServer((req, res) => {
    const url = new URL(req.url ?? '/', clientBase);
    if (url.pathname === '/client.json') {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          client_id: `${clientBase}/client.json`,
          client_name: 'Browser test agent',
          redirect_uris: [`${clientBase}/callback`],
        }),
      );
      return;
    }
    if (url.pathname === '/callback') callbacks.push(url.searchParams);
    res.setHeader('Content-Type', 'text/html');
    res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
  });
  await new Promise<void>((ready) => client.listen(0, '127.0.0.1', ready));
  clientBase = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => client?.close(done));
});

const post = (path: string, fields: Record<string, string>) =>
  workspaceHostFetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const mcp = (token: string) =>
  workspaceHostFetch(`${origin}/api/v1/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe.skipIf(!available)('the consent page in headless Chromium', () => {
  it('discovery → client metadata → the page filled in → code → token → tools/list → refresh → parent revoked → 401', async () => {
    const parent = await newKey(ws.slug, ['ideas:read', 'ideas:write', 'knowledge-bank:read']);
    const unauthenticated = await mcp('cxk_nothing');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(unauthenticated.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe(`${origin}/.well-known/oauth-protected-resource/api/v1/mcp`);
    const resource: any = await (await workspaceHostFetch(metadataUrl!)).json();
    const server: any = await (
      await workspaceHostFetch(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)
    ).json();
    expect(server.client_id_metadata_document_supported).toBe(true);

    const verifier = randomBytes(32).toString('base64url');
    const clientId = `${clientBase}/client.json`;
    const authorize = new URL(server.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `${clientBase}/callback`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: resource.resource,
      scope: 'ideas:read ideas:write knowledge-bank:read surveys:read',
      state: 'st-1',
    }).toString();

    await withChromium(async (browser) => {
      const page = await browser.newPage();
      await page.setJavaScriptEnabled(false);
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'ar,en;q=0.5' });
      const shown = await page.goto(authorize.href);
      expect(shown?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
      expect(await page.$eval('html', (html) => [html.lang, html.dir])).toEqual(['ar', 'rtl']);
      expect(await page.$eval('body', (body) => body.textContent)).toContain('Browser test agent');
      // The switch: the same request in English.
      await Promise.all([page.waitForNavigation(), page.click('nav a')]);
      expect(await page.$eval('html', (html) => html.lang)).toBe('en');
      await page.type('#key', parent.key);
      await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      expect(await page.content()).not.toContain(parent.key);
      const offered = await page.$$eval('input[name=permission]', (boxes) =>
        boxes.map((box) => (box as unknown as { value: string }).value),
      );
      // surveys:read was asked for, but the key does not hold it: not offered.
      expect(offered).toEqual(['ideas:read', 'ideas:write', 'knowledge-bank:read']);
      await page.click('input[value="ideas:write"]');
      await page.select('#lifetime', '1');
      await Promise.all([page.waitForNavigation(), page.click('button[value=allow]')]);
      expect(page.url()).toMatch(new RegExp(`^${clientBase}/callback\\?`));
    });
    const back = callbacks.at(-1)!;
    expect(back.get('state')).toBe('st-1');
    expect(back.get('iss')).toBe(origin);

    const exchanged = await post('/api/v1/oauth/token', {
      grant_type: 'authorization_code',
      code: back.get('code')!,
      code_verifier: verifier,
      redirect_uri: `${clientBase}/callback`,
      client_id: clientId,
      resource: resource.resource,
    });
    const tokens: any = await exchanged.json();
    expect(tokens.scope).toBe('ideas:read knowledge-bank:read');
    const listed: any = await (await mcp(tokens.access_token)).json();
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toContain('list_ideas');
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).not.toContain('create_idea');

    const refreshed: any = await (
      await post('/api/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })
    ).json();
    expect((await mcp(refreshed.access_token)).status).toBe(200);
    await revokeDeveloperKey(adminStore(), parent.id);
    expect((await mcp(refreshed.access_token)).status).toBe(401);
  }, 180_000);
});
