/**
 * The guides' walkthroughs are shell scripts (docs/walkthroughs/); each runs here against the sandbox,
 * in a fresh workspace made with cxctl as the guides say, and must print exactly the lines its
 * `#> ` comments document (`…` stands for ids, ETags and times). A walkthrough that drifts from the
 * code fails here. They run one after another: each takes seconds, and the machine is shared.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sandbox, uniqueSlug } from '../support/fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDER = join(ROOT, 'docs/walkthroughs');
const walkthroughs = readdirSync(FOLDER).filter((name) => name.endsWith('.sh') && name !== 'lib.sh');
const run = promisify(execFile);

/** What a walkthrough says it prints: its `#> ` lines, in order. */
function documentedOutput(script: string): string[] {
  return [...script.matchAll(/^#>(?: (.*))?$/gm)].map((m) => m[1] ?? '');
}

/** A documented line matches a printed one where each `…` stands for any text. */
function matches(documented: string, printed: string): boolean {
  const pattern = documented
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${pattern}$`, 's').test(printed);
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((ready) => server.once('listening', ready));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

/** The environment of a reader who has `npm start` running: cxctl finds its DynamoDB by DYNAMODB_PORT. */
const environment = {
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
  DYNAMODB_PORT: new URL(sandbox.dynamodbEndpoint).port,
  // …and its S3 (fauxqs, beside the queues) by SQS_PORT: operating.sh rebuilds and deletes objects.
  SQS_PORT: new URL(sandbox.sqsEndpoint).port,
  TABLE_NAME: sandbox.tableName,
  WORKSPACE_DOMAIN: 'localhost',
  BASE: sandbox.apiUrl,
};

async function cxctl(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['bin/cxctl.mjs', ...args], { cwd: ROOT, env: environment });
  return stdout;
}

describe('walkthroughs', () => {
  it('finds one per area', () => {
    expect(walkthroughs).toEqual(
      expect.arrayContaining([
        'ideas.sh',
        'journeys.sh',
        'journey-metrics.sh',
        'surveys.sh',
        'survey-responses.sh',
        'sops.sh',
        'webhooks.sh',
        'knowledge-bank.sh',
        'knowledge-bank-search.sh',
      ]),
    );
  });

  it('matches documented lines where each … stands for any text', () => {
    expect(matches('{"id":"…","n":5}', '{"id":"01a2-x","n":5}')).toBe(true);
    expect(matches('{"id":"…","n":5}', '{"id":"01a2-x","n":6}')).toBe(false);
    expect(matches('a.b', 'axb')).toBe(false);
  });

  it.each(walkthroughs)('%s prints what it documents', { timeout: 180_000 }, async (name) => {
    const workspace = uniqueSlug('walk');
    await cxctl('workspace', 'create', workspace);
    const { key } = JSON.parse(await cxctl('key', 'create', '--workspace', workspace, '--all', '--json')) as { key: string };
    const before = readdirSync(ROOT).sort();

    const result = await run('bash', [join(FOLDER, name)], {
      cwd: ROOT,
      env: { ...environment, WORKSPACE: workspace, KEY: key, RECEIVER_PORT: String(await freePort()) },
      timeout: 150_000,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);

    const documented = documentedOutput(readFileSync(join(FOLDER, name), 'utf8'));
    const printed = result.stdout.replace(/\n$/, '').split('\n');
    // Where a printed line matches, show the documented one, so the diff shows only real drift.
    expect(
      printed.map((line, i) => (documented[i] !== undefined && matches(documented[i], line) ? documented[i] : line)),
      result.stderr,
    ).toEqual(documented);
    expect('code' in result ? result.code : 0, result.stderr).toBe(0);
    // It wrote nothing into the repository (its files go to a temporary folder).
    expect(readdirSync(ROOT).sort()).toEqual(before);
  });
});
