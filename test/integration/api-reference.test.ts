/**
 * GET /docs: the reference page, rendered by Redoc from the document, served without a key. What
 * needs no browser is checked here; `npm run docs:screenshot` shows it in headless Chromium.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { call } from '../support/fixtures.ts';

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
