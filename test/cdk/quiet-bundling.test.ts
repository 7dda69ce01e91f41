/**
 * `npx cdk synth --quiet` printed six lines of bundling output for each of the app's functions (616
 * in all): CDK's "Bundling asset …" and esbuild's sizes. A one-function app, bundled for real in a
 * process of its own, now prints one line about bundling.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { withQuietBundling } from '../../cdk/quiet-bundling.ts';

const ROOT = resolve(import.meta.dirname, '../..');

it('bundles a house function with one line on stderr, no per-asset lines and no esbuild sizes', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/quiet-bundling-app.ts'], {
    cwd: ROOT,
  });
  expect(stdout).toBe('');
  expect(stderr).toBe('Bundled 1 asset with esbuild.\n');
});

it('says what it is doing before the first bundle and how many are done every ten, as `cdk synth` bundles for minutes first', () => {
  const printed: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => {
    printed.push(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    withQuietBundling(
      () => {
        for (let i = 0; i < 23; i++) process.stderr.write(`Bundling asset CxPortalApi/Fn${i}/Code/Stage...\n`);
      },
      { announce: 'Synthesizing CxPortalApi: bundling each function…' },
    );
  } finally {
    process.stderr.write = write;
  }
  expect(printed).toEqual([
    'Synthesizing CxPortalApi: bundling each function…\n',
    '  10 bundled…\n',
    '  20 bundled…\n',
    'Bundled 23 assets with esbuild.\n',
  ]);
});
