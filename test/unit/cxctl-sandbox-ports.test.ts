/**
 * cxctl finds the sandbox by DYNAMODB_PORT. Run without it against a sandbox on other ports, it used
 * to say only "connect ECONNREFUSED 127.0.0.1:8000 (is the sandbox running?)": now it says where it
 * looked and which variable to set, in one line, exit 1.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../local/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function cxctl(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stderr: string }> {
  const { DYNAMODB_PORT: _, ...inherited } = process.env;
  return promisify(execFile)(process.execPath, ['bin/cxctl.mjs', ...args], { cwd: ROOT, env: { ...inherited, ...env } }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe('cxctl when nothing answers where it looks', { timeout: 60_000 }, () => {
  it('names DYNAMODB_PORT, the address it tried and how to point it at a sandbox on other ports', async () => {
    const port = await freePort();
    const { code, stderr } = await cxctl({ DYNAMODB_PORT: String(port) }, 'workspace', 'list');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(stderr).toContain(
      `nothing answers at http://127.0.0.1:${port} (DYNAMODB_PORT=${port}): is the sandbox running? Start it with: npm start.`,
    );
    expect(stderr).toContain('give cxctl the same DYNAMODB_PORT (and PORT for demo) as npm start');
  });

  it('names the --endpoint it was given instead', async () => {
    const port = await freePort();
    const { code, stderr } = await cxctl({}, 'workspace', 'list', '--endpoint', `http://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(stderr).toContain(`(nothing answers at --endpoint http://127.0.0.1:${port})`);
  });
});
