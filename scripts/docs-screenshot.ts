/**
 * `npm run docs:screenshot`: renders the reference page and photographs its Ideas section in
 * headless Chromium (Debian's `chromium` package: `apt-get install -y chromium`), writing
 * docs/api-reference.png, so a change to the page can be seen, not just tested.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderApiReference } from '../lib/admin/api-reference.ts';

const target = resolve(process.argv[2] ?? 'docs/api-reference.png');
const dir = mkdtempSync(join(tmpdir(), 'docs-screenshot-'));
try {
  const page = join(dir, 'api-reference.html');
  await renderApiReference(page);
  execFileSync(
    process.env.CHROMIUM ?? 'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--hide-scrollbars',
      '--window-size=1400,1400',
      // Real time for Redoc to hydrate and scroll to the section (virtual time budgets gave blank pictures).
      '--timeout=8000',
      `--screenshot=${target}`,
      `file://${page}#/ideas/listideas`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  console.log(`Wrote ${target}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
