/**
 * `npm run docs:consent-screenshots`: the OAuth consent page (lib/mcp/oauth/consent-page.ts) as a
 * person sees it, in English and in Arabic (right to left), photographed in headless Chromium
 * (Debian's `chromium`) through puppeteer-core: docs/oauth-consent-en.png and docs/oauth-consent-ar.png,
 * each the page's second step (the permissions a key holds, a lifetime, Allow / Deny) under its first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withChromium } from '../lib/admin/headless-chromium.ts';
import { consentStepPage, keyStepPage, type PageLanguage } from '../lib/mcp/oauth/consent-page.ts';

const dir = mkdtempSync(join(tmpdir(), 'consent-screenshots-'));
try {
  await withChromium(async (browser) => {
    for (const language of ['en', 'ar'] as PageLanguage[]) {
      const sample = { language, clientName: 'Claude', returnsTo: 'claude.ai' };
      const first = keyStepPage({ ...sample, fields: {}, switchHref: '#' });
      const second = consentStepPage({
        ...sample,
        fields: { request: 'r', csrf: 'c' },
        permissions: ['ideas:read', 'ideas:write', 'knowledge-bank:read'],
      });
      // Both steps, one under the other, as one picture.
      const both = first.replace('</body>', `<hr>${/<body>([\s\S]*)<\/body>/.exec(second)![1]}</body>`);
      const file = join(dir, `consent-${language}.html`);
      writeFileSync(file, both);
      const page = await browser.newPage();
      await page.setViewport({ width: 720, height: 900 });
      await page.goto(`file://${file}`, { waitUntil: 'load' });
      const target = resolve(`docs/oauth-consent-${language}.png`);
      await page.screenshot({ path: target as `${string}.png`, fullPage: true });
      await page.close();
      console.log(`Wrote ${target}`);
    }
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
