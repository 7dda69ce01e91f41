/**
 * The Postman collection (clients/postman, `npm run collections`) as docs/collections.md says to run
 * it: the guide's commands, as written, make a workspace and a key with cxctl, set the labels and the
 * directory, start the sample receiver without a secret, and run every folder with newman's CLI
 * (a workspace name of its own, and a JSON report added to newman's options). Every request must get
 * the status the collection's own test expects, the operation's documented success.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCollections } from '../../clients/collections/flow.ts';
import { routes } from '../../lib/manifest.ts';
import { freePort } from '../../local/wait.ts';
import { documentedStatuses } from '../support/documented-responses.ts';
import { sandbox, uniqueSlug } from '../support/fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const guide = readFileSync(join(ROOT, 'docs/collections.md'), 'utf8');

/** The guide's shell blocks under "Run it against a workspace of your own": setup, receiver, run. */
function guideBlocks(): [setup: string, receiver: string, runAll: string] {
  const section = guide.slice(guide.indexOf('## Run it against a workspace of your own'), guide.indexOf('## How they are made and tested'));
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  expect(blocks).toHaveLength(3);
  return blocks as [string, string, string];
}

let receiverPort: number;
let receiver: ChildProcess;
let receiverOutput = '';

/** What a reader's terminal has, with the sandbox's ports and table as they set them. */
const terminal = () => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PORT: new URL(sandbox.apiUrl).port,
  DYNAMODB_PORT: new URL(sandbox.dynamodbEndpoint).port,
  RECEIVER_PORT: String(receiverPort),
  TABLE_NAME: sandbox.tableName,
  WORKSPACE_DOMAIN: 'localhost',
});

beforeAll(async () => {
  receiverPort = await freePort();
  const [, receiverBlock] = guideBlocks();
  // The reader's other terminal: its own process group, stopped with everything npm started.
  receiver = spawn('bash', ['-c', receiverBlock], { cwd: ROOT, env: terminal(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  receiver.stdout!.on('data', (chunk: Buffer) => (receiverOutput += chunk.toString()));
  receiver.stderr!.on('data', (chunk: Buffer) => (receiverOutput += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!receiverOutput.includes('Webhook receiver on')) {
    if (Date.now() > deadline || receiver.exitCode !== null) throw new Error(`The receiver did not start: ${receiverOutput}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 90_000);

afterAll(() => {
  if (receiver?.pid) process.kill(-receiver.pid, 'SIGTERM');
});

interface Execution {
  id: string;
  item: { id: string };
  request?: { url?: { path?: string[] } };
  response?: { code: number; stream?: { data: number[] } };
  assertions?: { assertion: string; error?: { message: string } }[];
}

/**
 * Each execution once, with its status when the report has it. newman's report lists a script's
 * `pm.sendRequest` (the secret handed to the receiver) as a second copy of the item's execution, both
 * with the receiver's request and answer in place of the item's own: for those, the item's own test
 * (its assertion, which the report keeps) is what says it got its documented success.
 */
function executionsOf(report: { run: { executions: Execution[] } }) {
  const seen = new Set<string>();
  return report.run.executions
    .filter((execution) => !seen.has(execution.id) && seen.add(execution.id))
    .map((execution) => ({
      operationId: String(execution.item.id).replace(' (again)', ''),
      status: execution.request?.url?.path?.[0] === 'api' ? execution.response?.code : undefined,
      failed: (execution.assertions ?? []).filter((a) => a.error).map((a) => `${a.assertion}: ${a.error!.message}`),
      asserted: (execution.assertions ?? []).map((a) => a.assertion),
    }));
}

describe('clients/postman on a workspace made as docs/collections.md says (newman)', () => {
  it('runs every request of the collection in order, each answered as its test expects', async () => {
    const [setup, , runAll] = guideBlocks();
    const report = join(mkdtempSync(join(tmpdir(), 'newman-')), 'report.json');
    const script = `set -euo pipefail\n${setup.replace(/^WS=.*$/m, `WS=${uniqueSlug('postman')}`)}\n${runAll.trimEnd()} --reporters cli,json --reporter-json-export ${report}\n`;
    const result = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT, env: terminal(), maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(existsSync(report), `newman wrote no report:\n${result.stderr}`).toBe(true);
    const summary = JSON.parse(readFileSync(report, 'utf8')) as { run: { executions: Execution[]; failures: unknown[] } };
    const results = executionsOf(summary);
    // Every key holder's operation (OAuth's browser and client steps are not: test/unit/collections.test.ts lists them).
    expect(results.map((r) => r.operationId)).toEqual(
      expect.arrayContaining(routes.filter(inCollections).map((route) => route.operationId)),
    );
    for (const result of results.filter((r) => r.status !== undefined)) {
      const route = routes.find((r) => r.operationId === result.operationId)!;
      expect(documentedStatuses(route), `${result.operationId} answered ${result.status}, which its document does not list`).toContain(
        result.status,
      );
      expect([200, 201, 202], `${result.operationId} answered ${result.status}`).toContain(result.status);
    }
    // Each request's own test: the status of its recorded call, the operation's documented success.
    expect(results.filter((r) => r.failed.length > 0)).toEqual([]);
    expect(results.filter((r) => !r.asserted.some((a) => /^answers 20[012]$/.test(a)))).toEqual([]);
    expect(summary.run.failures).toEqual([]);
    expect('code' in result ? result.code : 0, result.stderr).toBe(0);
    // The receiver verified the enable step's event with the secret the collection handed it, and the deliveries after it.
    expect(receiverOutput).toContain('PUT /secret: verifying with the new secret from now on');
    expect(receiverOutput).toMatch(/webhook-id=evt_verification_\w+ bearer ok, signature ok → 204/);
    expect(receiverOutput).not.toContain('(rejected)');
  }, 300_000);
});
