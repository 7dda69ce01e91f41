/**
 * 5,000 finished submits a second to one survey, as AWS would take them, at a hundredth of the scale:
 * `npm start` with SANDBOX_PARTITION_SCALE=100 gives every item and every key range written in order a
 * hundredth of a partition's units (local/partition-throttle.ts), and this test drives 50 submits a
 * second of 4 KB responses (20 open-text answers) at one survey, through 10 keys (one key is capped by
 * its own item, docs/costs.md), for LOAD_SECONDS. It needs a sandbox of its own: the shared one does
 * not throttle.
 *
 * With the keys this project had before issue 32 (one range of a survey's responses, written in order;
 * markers and the change feed the same; the survey item checked by every submit; the workspace item
 * read by every request), this load is throttled on every one of those and most submits fail after
 * their retries. Measured on those keys (main at 80f9095, a shared 2-core machine at load ~30): of
 * 1,000 submits, 2,355 DynamoDB requests were throttled and 826 submits answered 502; with submits
 * waiting out their retries, the sandbox took 2.5 a second (buckets of one second of their 1/100 rate
 * then; a range written in order at 41 times its rate still runs dry within 3 s of a partition-second's
 * bucket). With the keys that spread, this load is 62 % of what the tightest of them take (docs/costs.md):
 * AWS throttles none of it, and neither does the sandbox, whose buckets hold a whole partition's second
 * so that the load's randomness at 1/100 of the rate is AWS's (test/unit/partition-bursts.test.ts; with
 * buckets of one second this test failed a submit one run in a few). Every submit is answered 201 with
 * no request throttled, every response is listed once, and the list's total and the summary count them all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../../lib/admin/developer-keys.ts';
import { createLocalTableClient } from '../../lib/admin/table-client.ts';
import { setRequestBudget } from '../../lib/admin/workspaces.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';
import { freePorts } from '../../local/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCALE = 100;
const PER_SECOND = 50;
const LOAD_SECONDS = 20;
const KEYS = 10;
/**
 * At most this many submits in flight, fewer while answers are slow: the window grows by one with each
 * answer within PATIENCE_MS and halves with each slower one, so a slow machine sends fewer a second
 * rather than piling them up. The sandbox runs every invocation in one process, where AWS gives each
 * its own environment: on a machine other work had starved (a load of 20-28 on 2 cores), 25 submits
 * sharing what CPU was left each waited past the 10 s function timeout, a 500 or 502 no AWS client
 * at this rate would get.
 */
const IN_FLIGHT = 25;
const PATIENCE_MS = 2_000;
const WORKSPACE = 'your-workspace';

let child: ChildProcess | undefined;
let output = '';
let apiUrl = '';
let keys: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'partition-throttle-'));

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

let turn = 0;
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      'X-Service-Workspace-Host': `${WORKSPACE}.localhost`,
      Authorization: `Bearer ${keys[turn++ % keys.length]}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    throttles: Number(res.headers.get('x-sandbox-dynamodb-throttles') ?? 0),
    body: text ? JSON.parse(text) : undefined,
  };
}

const QUESTIONS = Array.from({ length: 20 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`);
const answers = (n: number) =>
  Object.fromEntries(
    QUESTIONS.map((id, i) => [id, `Answer ${i + 1} of response ${n}: `.padEnd(160, 'lorem ipsum dolor sit amet ').slice(0, 160)]),
  );

beforeAll(async () => {
  const [PORT, DYNAMODB_PORT, SQS_PORT] = (await freePorts(3)) as [number, number, number];
  const ports = { PORT, DYNAMODB_PORT, SQS_PORT };
  child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      SANDBOX_PARTITION_SCALE: String(SCALE),
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => output.includes('Ctrl-C stops everything.') || child?.exitCode !== null, 'the sandbox to start', 240_000);
  expect(output).toContain(`at 1/${SCALE} of a partition's units`);
  apiUrl = `http://127.0.0.1:${ports.PORT}/api/v1`;
  // Operator keys, written straight to DynamoDB Local (cxctl's way): not throttled, as cxctl is not.
  const store = createLocalTableClient('cx-portal', `http://127.0.0.1:${ports.DYNAMODB_PORT}`);
  keys = (
    await Promise.all(
      Array.from({ length: KEYS }, () =>
        createDeveloperKey(store, { workspace: WORKSPACE, permissions: [...PERMISSIONS], rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE }),
      ),
    )
  ).map((key) => key.key);
  // The workspace's request budget sized for the load it stands for in AWS (PER_SECOND × SCALE, with a
  // burst of twice that), as an operator would set it: its counts then spread over as many shards as
  // AWS would see, each far under what the scaled partition takes.
  await setRequestBudget(store, WORKSPACE, { requestsPerSecond: PER_SECOND * SCALE, burst: 2 * PER_SECOND * SCALE });
}, 300_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child?.once('exit', done));
    child.kill('SIGINT');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`SANDBOX_PARTITION_SCALE=${SCALE}: ${PER_SECOND} submits a second to one survey (≙ ${PER_SECOND * SCALE} in AWS)`, () => {
  it('answers every submit without a throttle, lists every response once, and counts them all in the total and the summary', async () => {
    const created = await call('POST', '/surveys', { name: 'Throttled survey' });
    expect(created.status).toBe(200);
    const surveyId = created.body.survey.id as string;
    const definition = {
      languages: ['en'],
      questions: QUESTIONS.map((id) => ({ id, type: 'openText', headline: { en: id }, required: false })),
      endings: [{ id: 'thanks', headline: { en: 'Thanks' } }],
    };
    expect(
      (await call('PUT', `/surveys/${surveyId}/versions/${created.body.version.id}`, { definition }, { 'If-Match': '"1"' })).status,
    ).toBe(200);
    expect((await call('POST', `/surveys/${surveyId}/publish`, { versionId: created.body.version.id })).status).toBe(200);

    const total = PER_SECOND * LOAD_SECONDS;
    const submitted: { status: number; throttles: number; id?: string; ms: number }[] = [];
    const started = Date.now();
    /** When each submit still waiting for its answer was sent, by its number. */
    const inFlight = new Map<number, number>();
    let allowed = 1;
    const sends: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      // One every 1/PER_SECOND s, while fewer than `allowed` are waiting for an answer.
      while (Date.now() < started + (n * 1000) / PER_SECOND || inFlight.size >= Math.floor(allowed)) {
        await new Promise((r) => setTimeout(r, 5));
      }
      inFlight.set(n, Date.now());
      sends.push(
        call('POST', `/surveys/${surveyId}/responses`, { answers: answers(n) }).then((res) => {
          const ms = Date.now() - inFlight.get(n)!;
          inFlight.delete(n);
          allowed = ms <= PATIENCE_MS ? Math.min(IN_FLIGHT, allowed + 1) : Math.max(1, allowed / 2);
          submitted.push({ status: res.status, throttles: res.throttles, id: res.body?.response?.id, ms });
        }),
      );
    }
    await Promise.all(sends);
    const seconds = (Date.now() - started) / 1000;
    const throttled = submitted.reduce((sum, s) => sum + s.throttles, 0);
    const failed = submitted.filter((s) => s.status !== 201);
    console.log(
      `${total} submits in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(1)} a second, the slowest answered in ${(Math.max(...submitted.map((s) => s.ms)) / 1000).toFixed(1)} s): ${throttled} DynamoDB requests throttled and retried, ${failed.length} submits failed`,
    );
    // The sandbox says what it throttled every 5 s (`DynamoDB throttled N× <bucket>`): shown when something failed.
    const throttledWhere = output.split('\n').filter((line) => line.includes('DynamoDB throttled'));
    expect(
      failed.map((s) => s.status),
      throttledWhere.slice(-20).join('\n'),
    ).toEqual([]);
    // Within the documented capacity, as in AWS: not one request turned away, let alone a submit.
    expect(throttled, throttledWhere.slice(-20).join('\n')).toBe(0);

    // Every response listed once, newest first, by cursor; the total counts them all.
    const listed: string[] = [];
    let page = await call('GET', `/surveys/${surveyId}/responses?limit=100`);
    expect(page.body.pagination.total).toBe(total);
    for (;;) {
      expect(page.status).toBe(200);
      listed.push(...page.body.responses.map((r: { id: string }) => r.id));
      if (!page.body.pagination.nextCursor) break;
      page = await call('GET', `/surveys/${surveyId}/responses?limit=100&cursor=${encodeURIComponent(page.body.pagination.nextCursor)}`);
    }
    expect(new Set(listed).size).toBe(listed.length);
    expect(new Set(listed)).toEqual(new Set(submitted.map((s) => s.id)));

    // The summary (the stream aggregator, throttled too) counts every one of them.
    let summary: { started: number; finished: number } | undefined;
    await until(
      async () => {
        summary = (await call('GET', `/surveys/${surveyId}/summary`)).body?.summary?.responses;
        return summary?.started === total;
      },
      'the summary to count every response',
      120_000,
    );
    expect(summary).toMatchObject({ started: total, finished: total });
  }, 600_000);
});
