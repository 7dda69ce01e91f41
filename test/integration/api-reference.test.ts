/**
 * GET /docs: the reference page, rendered by Redoc from the document, served without a key. What
 * needs no browser is checked here; `npm run docs:screenshot` shows it in headless Chromium.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../lib/api-document.ts';
import { routes } from '../../lib/manifest.ts';
import { call, newWorkspace, sandbox } from '../support/fixtures.ts';

describe('GET /docs', () => {
  it('serves one self-contained HTML page without a key or workspace', async () => {
    const res = await call('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('api-version')).toBe('1.0.0');
    expect(res.text).toMatch(/^<!DOCTYPE html>/i);
    expect(res.text).toContain('<title>Customer Experience Portal API reference</title>');
    // Redoc's script is inside the page: no CDN, so it works offline and behind any firewall.
    expect(res.text).not.toMatch(/<script[^>]+src=["']https?:/);
  });

  it('renders every area in the menu and carries every operation, its permissions, error codes and recorded examples', async () => {
    const { text } = await call('GET', '/docs');
    const has = (needle: string) => expect(text.includes(needle), needle).toBe(true);
    for (const tag of ['Introduction', 'Ideas', 'SOPs', 'Webhooks']) has(`data-text="${tag}"`);
    for (const route of routes) has(`"operationId":"${route.operationId}"`);
    has('Permission: ideas:read.');
    has('version_conflict');
    has('Dark mode for the portal');
    has('curl -X POST');
    // Hash routes keep navigation inside /api/v1/docs; no telemetry from readers' browsers.
    has('"routingStrategy":"hash"');
    has('"disableTelemetry":true');
  });
});

describe("the page's curl samples", () => {
  it('run as printed against the server in BASE_URL, with the workspace and key from the shell', async () => {
    const ws = await newWorkspace('samples');
    const doc = apiDocument() as { paths: Record<string, Record<string, { 'x-codeSamples'?: { source: string }[] }>> };
    const listIdeas = doc.paths['/ideas']!.get!['x-codeSamples']![0]!.source;
    const run = (source: string) =>
      execFileSync('bash', ['-c', `${source} -s -o /dev/null -w '%{http_code}'`], {
        env: { ...process.env, BASE_URL: sandbox.apiUrl, WORKSPACE_HOST: ws.host, CX_KEY: ws.key },
        encoding: 'utf8',
      });
    expect(run(listIdeas)).toBe('200');
    // Without the variables it is the sandbox's default address, not a placeholder host.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, as the sample prints it
    expect(listIdeas).toContain('${BASE_URL:-http://127.0.0.1:3000/api/v1}/ideas');
  });
});
