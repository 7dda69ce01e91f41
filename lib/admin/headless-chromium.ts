/**
 * Debian's Chromium (`apt-get install -y chromium`; `CHROMIUM` names another binary) driven by
 * puppeteer-core, the maintained DevTools client, for what a person must see in a browser: the
 * consent page's test and the docs' screenshots. A fresh profile each launch, removed afterwards;
 * background networking off, since the machine's network is closed and Chromium would otherwise
 * flood it with refused connections.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

const CHROMIUM_BINARY = process.env.CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
];

/** Runs `action` with a fresh headless Chromium, closed and its profile removed afterwards. */
export async function withChromium<T>(action: (browser: Browser) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_BINARY,
    args: [...FLAGS, `--user-data-dir=${profile}`],
    headless: true,
  });
  try {
    return await action(browser);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
