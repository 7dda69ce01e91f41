/**
 * cxctl takes every endpoint of the sandbox from one place (cli/target.ts): the variables npm start was
 * given, each a command uses, else DATA_DIR/sandbox.json, else the defaults. Against nothing running,
 * it says where it looked and what to set, in one line, exit 1; a command missing a variable it uses
 * is refused before it reaches anything, rather than reach the service on its default port, which may
 * be another sandbox's (it once wrote a search index into the default sandbox's object store).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, freePorts } from '../../local/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const emptyDataDir = mkdtempSync(join(tmpdir(), 'cxctl-ports-'));

afterAll(() => rmSync(emptyDataDir, { recursive: true, force: true }));

async function cxctl(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stderr: string }> {
  const { DYNAMODB_PORT: _d, SQS_PORT: _s, PORT: _p, DATA_DIR: _dd, TABLE_NAME: _t, AWS_ENDPOINT_URL_S3: _e, ...inherited } = process.env;
  return promisify(execFile)(process.execPath, ['bin/cxctl.mjs', ...args], {
    cwd: ROOT,
    env: { ...inherited, DATA_DIR: emptyDataDir, ...env },
  }).then(
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
    expect(stderr).toContain('give cxctl the variables its banner prints with each command');
  });

  it('takes the endpoints npm start wrote into DATA_DIR/sandbox.json', async () => {
    const [dynamodb, sqs, api] = (await freePorts(3)) as [number, number, number];
    const dataDir = mkdtempSync(join(tmpdir(), 'cxctl-ports-'));
    try {
      // As a running sandbox writes it (this process stands in for its live pid).
      writeFileSync(
        join(dataDir, 'sandbox.json'),
        JSON.stringify({
          pid: process.pid,
          dataDir,
          apiUrl: `http://127.0.0.1:${api}/api/v1`,
          dynamodbEndpoint: `http://127.0.0.1:${dynamodb}`,
          sqsEndpoint: `http://127.0.0.1:${sqs}`,
          tableName: 'cx-portal-restored',
        }),
      );
      const { code, stderr } = await cxctl({ DATA_DIR: dataDir }, 'workspace', 'list');
      expect(code).toBe(1);
      expect(stderr).toContain(`nothing answers at http://127.0.0.1:${dynamodb} (from ${dataDir}/sandbox.json)`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names the --endpoint it was given instead', async () => {
    const port = await freePort();
    const { code, stderr } = await cxctl({}, 'workspace', 'list', '--endpoint', `http://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(stderr).toContain(`(nothing answers at --endpoint http://127.0.0.1:${port})`);
  });
});

describe('cxctl given some of the variables a command uses', { timeout: 60_000 }, () => {
  it('refuses to write objects with DYNAMODB_PORT but no SQS_PORT, before reaching anything', async () => {
    const { code, stderr } = await cxctl({ DYNAMODB_PORT: String(await freePort()) }, 'rebuild', 'search', '--all');
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      "cxctl: rebuild search also writes the sandbox's object store: give SQS_PORT with DYNAMODB_PORT, as npm start was given them, " +
        'rather than reach the object store on the default port, which may be another sandbox',
    );
  });

  it('refuses SQS_PORT or PORT without DYNAMODB_PORT', async () => {
    for (const given of [{ SQS_PORT: '4602' }, { PORT: '3102' }] as Record<string, string>[]) {
      const { code, stderr } = await cxctl(given, 'workspace', 'list');
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^cxctl: (SQS_PORT|PORT) given without DYNAMODB_PORT: cxctl would reach the table of the sandbox on port 8000, which may not be the one you mean/,
      );
    }
  });

  it('refuses demo without PORT (or --api) when the variables name the table', async () => {
    const { code, stderr } = await cxctl({ DYNAMODB_PORT: String(await freePort()) }, 'demo', 'your-workspace');
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'cxctl: demo also calls the sandbox API: give PORT with DYNAMODB_PORT, as npm start was given them, or --api URL',
    );
  });
});
