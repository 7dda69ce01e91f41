/**
 * `npx cdk synth --quiet` printed six lines of bundling output for each of the app's functions (616
 * in all): CDK's "Bundling asset …" and esbuild's sizes. A one-function app, bundled for real in a
 * process of its own, now prints one line about bundling.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

it('bundles a house function with one line on stderr, no per-asset lines and no esbuild sizes', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/quiet-bundling-app.ts'], {
    cwd: ROOT,
  });
  expect(stdout).toBe('');
  expect(stderr).toBe('Bundled 1 asset with esbuild.\n');
});
