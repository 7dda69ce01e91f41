/**
 * The consent page's errors are pages for the person in the browser (docs/mcp.md, OAuth), not the
 * JSON envelope: the real handler's chain renders a request it refuses before any table call as a
 * page in the person's language, under the consent page's own headers. The end-to-end cases (an
 * unknown client, a redirect URI not the client's) are in test/integration/mcp-oauth.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { handler as token } from '../../functions/oauth/exchange-o-auth-token.ts';
import { handler as showConsent } from '../../functions/oauth/show-o-auth-consent.ts';
import { errorPage } from '../../lib/mcp/oauth/consent-page.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';

type Answer = { statusCode?: number; headers?: Record<string, string>; body?: string };
const workspaceHost = { host: 'acme.localhost' };

describe('the consent page’s errors', () => {
  it('are an HTML page in the person’s language, naming the code, with no script and no frame', async () => {
    const event = apiEvent({
      path: '/api/v1/oauth/authorize',
      headers: { ...workspaceHost, 'accept-language': 'ar;q=0.9, en;q=0.5' },
      query: { response_type: 'code' },
    });
    const res = (await showConsent(event, lambdaContext())) as Answer;
    expect(res.statusCode).toBe(400);
    expect(res.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(res.headers?.['Content-Security-Policy']).toMatch(/^default-src 'none';.*form-action 'self';.*frame-ancestors 'none'/);
    expect(res.headers?.['X-Frame-Options']).toBe('DENY');
    expect(res.body).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(res.body).toContain('<code>invalid_query</code>');
    expect(res.body).not.toContain('<script');
  });

  it('escape the message they show, and explain a code they do not know generically', () => {
    const page = errorPage('en', 'something_new', '<img src=x onerror=alert(1)> "quoted"');
    expect(page).not.toContain('<img');
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62; &#34;quoted&#34;');
    expect(page).toContain('The app’s request could not be completed.');
  });

  it('leave the token endpoint’s errors in the JSON envelope its OAuth client reads', async () => {
    const event = apiEvent({
      method: 'POST',
      path: '/api/v1/oauth/token',
      headers: { ...workspaceHost, 'content-type': 'application/json' },
      body: '{}',
    });
    const res = (await token(event, lambdaContext())) as Answer;
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body!)).toMatchObject({ ok: false, error: 'unsupported_media_type' });
  });
});
