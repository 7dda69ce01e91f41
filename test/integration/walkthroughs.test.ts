/**
 * The guides' walkthroughs are shell scripts (docs/walkthroughs/); each runs here against the sandbox
 * as a reader runs it: `bash` with the shell's own PATH (whatever `node` it finds first, which lib.sh
 * must not use), in a new workspace made with cxctl as the guides say, and in a workspace filled by
 * `cxctl demo`, where the README sends readers, twice. Each time it must print exactly the lines its
 * `#> ` comments document (`…` stands for ids, ETags, times and counts), nothing on stderr, and exit
 * 0; between its two runs in the demo's workspace, a demo run must find its data as it wrote it.
 * They run one after another: each takes seconds, and the machine is shared.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { demo, demoSnapshot } from '../support/demo.ts';
import { clientFor, sandbox, uniqueSlug } from '../support/fixtures.ts';

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

/**
 * A reader's shell: npm and vitest put the project's Node 24 (node_modules/.bin) first on PATH, a
 * terminal does not, so the first `node` there is whatever the machine has (Node 20 prints the AWS
 * SDK's version warning on every cxctl call).
 */
const readerPath = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('/node_modules/'))
  .join(':');

/** The environment of a reader who has `npm start` running: cxctl finds its DynamoDB by DYNAMODB_PORT. */
const environment = {
  ...process.env,
  PATH: readerPath,
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

interface Ran {
  stdout: string;
  stderr: string;
  code: number;
}

async function bash(script: string, env: Record<string, string>, args: string[] = []): Promise<Ran> {
  const result = await run('bash', [script, ...args], { cwd: ROOT, env: { ...environment, ...env }, timeout: 150_000 }).catch(
    (error: Ran) => error,
  );
  return { stdout: result.stdout, stderr: result.stderr, code: 'code' in result ? Number(result.code) : 0 };
}

/** Runs a walkthrough in `workspace` and holds it to its documented lines, a clean stderr and exit 0. */
async function expectAsDocumented(name: string, workspace: string, key: string): Promise<void> {
  const before = readdirSync(ROOT).sort();
  const result = await bash(join(FOLDER, name), { WORKSPACE: workspace, KEY: key, RECEIVER_PORT: String(await freePort()) });
  const documented = documentedOutput(readFileSync(join(FOLDER, name), 'utf8'));
  const printed = result.stdout.replace(/\n$/, '').split('\n');
  // Where a printed line matches, show the documented one, so the diff shows only real drift.
  expect(
    printed.map((line, i) => (documented[i] !== undefined && matches(documented[i], line) ? documented[i] : line)),
    result.stderr,
  ).toEqual(documented);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  // It wrote nothing into the repository (its files go to a temporary folder).
  expect(readdirSync(ROOT).sort()).toEqual(before);
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

  it('fails a walkthrough whose wait runs out, saying what it waited for (lib.sh poll)', { timeout: 90_000 }, async () => {
    const workspace = uniqueSlug('walk');
    await cxctl('workspace', 'create', workspace);
    const { key } = JSON.parse(await cxctl('key', 'create', '--workspace', workspace, '--all', '--json')) as { key: string };
    const result = await bash('-c', { WORKSPACE: workspace, KEY: key, POLL_SECONDS: '2' }, [
      `source ${join(FOLDER, 'lib.sh')}; poll /me v.data.authenticated false > /dev/null; echo 'not reached'`,
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^✖ poll: after 2 s, v\.data\.authenticated of GET \/me is still not false; the last answer: \{"ok":true,/,
    );
  });
});

describe('walkthroughs in a new workspace', () => {
  it.each(walkthroughs)('%s prints what it documents', { timeout: 180_000 }, async (name) => {
    const workspace = uniqueSlug('walk');
    await cxctl('workspace', 'create', workspace);
    const { key } = JSON.parse(await cxctl('key', 'create', '--workspace', workspace, '--all', '--json')) as { key: string };
    await expectAsDocumented(name, workspace, key);
  });
});

describe('a walkthrough changes nothing it did not make', () => {
  it("mcp.sh keeps the workspace's own idea labels (it adds the status it files with)", { timeout: 300_000 }, async () => {
    const workspace = uniqueSlug('walk');
    await cxctl('workspace', 'create', workspace);
    await cxctl('labels', 'set', workspace, '--statuses', 'triage', '--modules', 'kiosk');
    const { key } = JSON.parse(await cxctl('key', 'create', '--workspace', workspace, '--all', '--json')) as { key: string };
    await expectAsDocumented('mcp.sh', workspace, key);
    const labels = await clientFor({ host: `${workspace}.localhost`, key }).get('/ideas/labels');
    expect(labels.body.data).toEqual({ statuses: ['triage', 'new'], modules: ['kiosk'] });
  });
});

describe('walkthroughs in a workspace filled by cxctl demo', () => {
  const workspace = uniqueSlug('walkdemo');
  let key: string;
  let before: Awaited<ReturnType<typeof demoSnapshot>>;

  beforeAll(async () => {
    key = JSON.parse(await demo(workspace, '--json')).key;
    before = await demoSnapshot(clientFor({ host: `${workspace}.localhost`, key }));
  }, 180_000);

  it.each(walkthroughs)('%s prints what it documents', { timeout: 180_000 }, async (name) => {
    await expectAsDocumented(name, workspace, key);
  });

  it("leaves the demo's data as the demo wrote it: a demo run then changes nothing and finds nothing changed", async () => {
    const again = await demo(workspace);
    expect(again).toContain(`Everything already exists in ${workspace}: nothing changed.`);
    expect(again).not.toContain('Changed since the demo wrote them');
    expect(await demoSnapshot(clientFor({ host: `${workspace}.localhost`, key }))).toEqual(before);
  }, 120_000);

  it.each(walkthroughs)('%s prints the same when run again', { timeout: 180_000 }, async (name) => {
    await expectAsDocumented(name, workspace, key);
  });
});
