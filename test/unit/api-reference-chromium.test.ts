/**
 * The reference page as a reader meets it: opened from disk in headless Chromium with no network, it
 * fetches nothing beyond itself, names its license in words and offers curl samples for the sandbox
 * first. Without Chromium (`apt-get install -y chromium`; `.ci/run` installs it) this file says so in
 * one line and skips itself only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApiReference } from '../../lib/admin/api-reference.ts';
import { chromiumAvailable, pageVisit } from '../support/chromium.ts';

const available = chromiumAvailable();
if (!available) console.warn('SKIPPED api-reference-chromium: no `chromium` binary (apt-get install -y chromium)');

const dir = mkdtempSync(join(tmpdir(), 'api-reference-test-'));
const page = join(dir, 'api-reference.html');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!available)('the reference page in headless Chromium', () => {
  let visit: { requests: string[]; text: string };
  let introduction: { requests: string[]; text: string };
  let events: { requests: string[]; text: string };
  beforeAll(async () => {
    await renderApiReference(page);
    // Each visit reads the page until it shows the part a test below reads (the tests say what is in it).
    visit = await pageVisit(`${page}#/ideas/listideas`, (text) => text.includes('curl -X GET'));
    introduction = await pageVisit(page, (text) => text.includes('https://{workspace}.{domain}/api/v1'));
    events = await pageVisit(`${page}#/webhooks/ideastatuschangedevent`, (text) => text.includes('An idea was submitted'));
  }, 400_000);

  it('fetches nothing from the network: no CDN script, font or logo', () => {
    const outside = visit.requests.filter((url) => !/^(file|data|blob|about):/.test(url));
    expect(outside).toEqual([]);
    // The page itself was loaded, so the list above is not empty for want of looking.
    expect(visit.requests.some((url) => url.startsWith('file://'))).toBe(true);
  });

  it('reads the license as words, and lists the sandbox first among the servers', () => {
    expect(introduction.text).toContain('Proprietary: all rights reserved');
    expect(introduction.text).not.toContain('LicenseRef');
    const sandbox = introduction.text.indexOf('http://127.0.0.1:{port}/api/v1');
    expect(sandbox).toBeGreaterThan(-1);
    expect(introduction.text.indexOf('https://{workspace}.{domain}/api/v1')).toBeGreaterThan(sandbox);
  });

  it('shows a curl sample that calls the server the reader picks, the sandbox by default', () => {
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, as the page shows it
    expect(visit.text).toContain('curl -X GET "${BASE_URL:-http://127.0.0.1:3000/api/v1}/ideas?limit=1"');
    expect(visit.text).toContain('X-Service-Workspace-Host: ${WORKSPACE_HOST:-your-workspace.localhost}');
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion
  });

  it("shows the document's webhook events under Webhooks, with their headers and payload", () => {
    for (const event of [
      'An idea was submitted',
      "An idea's status changed",
      'An idea was changed',
      'An idea was deleted',
      'A survey response was finished',
      'Verification, before a webhook is enabled',
    ]) {
      expect(events.text).toContain(event);
    }
    for (const detail of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'At least once, ordered by']) {
      expect(events.text).toContain(detail);
    }
  });
});
