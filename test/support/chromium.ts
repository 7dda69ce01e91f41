/**
 * Headless Chromium (Debian's `chromium` package) for looking at pictures the way a person does.
 * `CHROMIUM` names another binary. Each call gets a fresh profile, removed afterwards.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BINARY = process.env.CHROMIUM ?? 'chromium';

export function chromiumAvailable(): boolean {
  try {
    execFileSync(BINARY, ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

async function withProfile<T>(action: (flags: string[]) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  try {
    return await action([
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
    ]);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Renders a file (an SVG) to a PNG at the given window size. */
export async function screenshot(file: string, png: string, width: number, height: number): Promise<void> {
  await withProfile((flags) =>
    run(BINARY, [...flags, `--window-size=${width},${height}`, `--screenshot=${png}`, `file://${file}`], { timeout: 60_000 }),
  );
}

/** The document as Chromium parsed it, serialised again: what it understood, not what was sent. */
export async function dumpDom(file: string): Promise<string> {
  return withProfile(
    async (flags) =>
      (await run(BINARY, [...flags, '--dump-dom', `file://${file}`], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })).stdout,
  );
}
