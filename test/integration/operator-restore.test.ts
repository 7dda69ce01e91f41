/**
 * docs/operating.md's restore, run end to end as an operator runs it, with `npm start` and cxctl:
 *   1. a sandbox (DATA_DIR) holds a workspace with a published article, a survey and responses;
 *   2. `cxctl backup restore --to <table>` copies its table into a new one (the sandbox's
 *      point-in-time restore), whose stream starts empty;
 *   3. the sandbox stops and the stack is "deleted": the queues and buckets go (DATA_DIR/sqs and the
 *      stream checkpoints), the table and the signing key (DATA_DIR/cursor-signing-key) are kept;
 *   4. a new sandbox starts on the copy (TABLE_NAME), and `cxctl rebuild search|summaries --all`
 *      make the derived data again;
 *   5. everything reads as before: the survey's summary, search, and erasure by e-mail, which finds
 *      its respondent only because the key the respondent hashes were made with was kept;
 *   6. every consumer of the copy's stream sees what is written after the restore: an idea's webhook
 *      event is delivered, a new response is summarised, a newly published article is found. (The
 *      copy's stream was switched on after its items were written: DynamoDB Local then numbers its
 *      new records below the stream's start, which the sandbox's reader has to allow for.)
 * Each step's time is printed: docs/operating.md quotes them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../local/wait.ts';
import { routedDefinition } from '../support/surveys.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'operator-restore-'));
const RESTORED = 'cx-portal-restored';
const running: ChildProcess[] = [];

interface Sandbox {
  child: ChildProcess;
  env: NodeJS.ProcessEnv;
  api: string;
}

async function npmStart(table?: string, extra: NodeJS.ProcessEnv = {}): Promise<Sandbox> {
  const [PORT, DYNAMODB_PORT, SQS_PORT] = (await freePorts(3)) as [number, number, number];
  const ports = { PORT, DYNAMODB_PORT, SQS_PORT };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    ...(table ? { TABLE_NAME: table } : {}),
    ...extra,
  };
  const child = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 240_000;
  while (!output.includes('Ctrl-C stops everything.')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The sandbox did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, env, api: `http://127.0.0.1:${ports.PORT}/api/v1` };
}

async function stop(sandbox: Sandbox): Promise<void> {
  const exited = new Promise((done) => sandbox.child.once('exit', done));
  sandbox.child.kill('SIGINT');
  await exited;
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  for (const child of running)
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT');
      await exited;
    }
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

async function cxctl(sandbox: Sandbox, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/cxctl.mjs', ...args], {
    cwd: ROOT,
    env: { ...sandbox.env, WORKSPACE_DOMAIN: 'localhost' },
  });
  return stdout;
}

function client(sandbox: Sandbox, workspace: string, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.api}${path}`, {
      method,
      headers: {
        'X-Service-Workspace-Host': `${workspace}.localhost`,
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(method === 'PUT' ? { 'If-Match': '*' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Records in a table's stream, from its start. */
async function streamRecords(sandbox: Sandbox, table: string): Promise<number> {
  const config = {
    endpoint: `http://127.0.0.1:${sandbox.env.DYNAMODB_PORT}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const dynamodb = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  try {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: Table!.LatestStreamArn }));
    let records = 0;
    for (const shard of StreamDescription?.Shards ?? []) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: Table!.LatestStreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      records += (await streams.send(new GetRecordsCommand({ ShardIterator }))).Records?.length ?? 0;
    }
    return records;
  } finally {
    dynamodb.destroy();
    streams.destroy();
  }
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

describe('a restore, end to end in the sandbox', () => {
  it('brings back every read, search, summaries and erasure on a copy of the table, after the stack was deleted', {
    timeout: 900_000,
  }, async () => {
    // Each step's time, printed as it is taken (docs/operating.md quotes them).
    const times = { push: (line: string) => console.log(`restore step: ${line}`) };
    const first = await npmStart();
    const workspace = 'restored-tenant';
    await cxctl(first, 'workspace', 'create', workspace);
    const { key } = JSON.parse(await cxctl(first, 'key', 'create', '--workspace', workspace, '--all', '--json')) as { key: string };
    let api = client(first, workspace, key);

    const category = (await api('POST', '/knowledge-bank/categories', { nameEn: 'Billing' })).body.category;
    const article = (
      await api('POST', '/knowledge-bank/articles', {
        categoryId: category.id,
        titleEn: 'Rotate the billing key',
        blocks: [{ type: 'paragraph', text: { en: [{ text: 'Rotate the billing key every quarter.' }] } }],
      })
    ).body.article;
    expect((await api('POST', `/knowledge-bank/articles/${article.id}/publish`)).status).toBe(200);
    const survey = (await api('POST', '/surveys', { name: 'After the restore' })).body;
    const surveyId = survey.survey.id as string;
    const saved = await fetch(`${first.api}/surveys/${surveyId}/versions/${survey.version.id}`, {
      method: 'PUT',
      headers: {
        'X-Service-Workspace-Host': `${workspace}.localhost`,
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'If-Match': `"${survey.version.revision}"`,
      },
      body: JSON.stringify({ definition: routedDefinition() }),
    });
    expect(saved.status).toBe(200);
    expect((await api('POST', `/surveys/${surveyId}/publish`, { versionId: survey.version.id })).status).toBe(200);
    for (const [email, score] of [
      ['ana@example.com', 10],
      ['ben@example.com', 6],
      ['cy@example.com', 9],
    ] as const) {
      const submitted = await api('POST', `/surveys/${surveyId}/responses`, {
        answers: { plan: 'pro', channels: ['mail'], favourite: 'mail', score },
        respondent: { email },
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    }
    const summary = await until(
      () => api('GET', `/surveys/${surveyId}/summary`),
      (r) => r.body.summary?.responses?.started === 3,
      'three responses counted',
    );
    await until(
      () => api('GET', '/knowledge-bank/search?q=billing'),
      (r) => r.body.results?.length === 1,
      'the article searchable',
    );
    expect((await api('POST', '/ideas', { title: 'Keep my data', description: 'Across a restore' })).status).toBe(201);
    const ideas = await api('GET', '/ideas');
    // A webhook on ideas, enabled (its verification reaches the receiver), kept by the restore.
    const hook = (await api('POST', '/webhooks', { name: 'Restore drill', url: receiver.url, events: ['idea.submitted'] })).body.webhook;
    expect((await api('POST', `/webhooks/${hook.id}/enable`)).body.webhook.enabled).toBe(true);

    let started = performance.now();
    const restore = await cxctl(first, 'backup', 'restore', '--to', RESTORED);
    times.push(`backup restore (copy): ${seconds(started)} s`);
    expect(restore).toContain(`Restored into ${RESTORED}`);
    // Every variable the sandbox was started with, and the copy's table.
    const { PORT, DYNAMODB_PORT, SQS_PORT } = first.env;
    expect(restore).toContain(
      `PORT=${PORT} DYNAMODB_PORT=${DYNAMODB_PORT} SQS_PORT=${SQS_PORT} DATA_DIR=${dataDir} TABLE_NAME=${RESTORED} npm start`,
    );
    expect(restore).toContain(
      `DYNAMODB_PORT=${DYNAMODB_PORT} SQS_PORT=${SQS_PORT} DATA_DIR=${dataDir} TABLE_NAME=${RESTORED} npx cxctl rebuild search --all`,
    );
    // As after a point-in-time restore, the copy's stream starts empty: no consumer sees a copied item as a new write.
    expect(await streamRecords(first, RESTORED)).toBe(0);

    started = performance.now();
    await stop(first);
    times.push(`stop the sandbox: ${seconds(started)} s`);
    // What `cdk destroy` removes: the queues and the buckets with their objects, and the event source
    // mappings' positions. What it keeps: the table (and its copy) and the signing key.
    for (const gone of ['sqs', 'stream-checkpoints.json', 'search-index-checkpoints.json'])
      rmSync(join(dataDir, gone), { recursive: true, force: true });
    // Had the secret been made anew (as a stack that deleted it would), erasure would find nobody.
    const newKey = await npmStart(RESTORED, { CURSOR_SIGNING_KEY: 'a-secret-made-anew' });
    expect((await client(newKey, workspace, key)('POST', '/surveys/responses/erase', { email: 'ben@example.com' })).body).toMatchObject({
      erased: 0,
    });
    await stop(newKey);
    started = performance.now();
    const second = await npmStart(RESTORED);
    times.push(`start the sandbox on the copy: ${seconds(started)} s`);
    api = client(second, workspace, key);

    started = performance.now();
    const search = JSON.parse(await cxctl(second, 'rebuild', 'search', '--all', '--json'));
    times.push(`rebuild search --all: ${seconds(started)} s`);
    expect(search).toContainEqual(expect.objectContaining({ workspace, result: 'rebuilt', articles: 1 }));
    started = performance.now();
    const summaries = JSON.parse(await cxctl(second, 'rebuild', 'summaries', '--all', '--json'));
    times.push(`rebuild summaries --all: ${seconds(started)} s`);
    expect(summaries).toContainEqual({
      workspace,
      surveys: [{ surveyId, responses: 3, removals: 0, transactions: 0, matchesRecount: true, differences: 0 }],
    });

    expect(await api('GET', '/ideas')).toEqual(ideas);
    expect(await api('GET', `/surveys/${surveyId}/summary`)).toEqual(summary);
    expect((await api('GET', '/knowledge-bank/search?q=billing')).body.results.map((r: { title: string }) => r.title)).toEqual([
      'Rotate the billing key',
    ]);
    // Erasure finds the respondent through a hash keyed with the kept secret.
    expect((await api('POST', '/surveys/responses/erase', { email: 'Ben@Example.com' })).body).toMatchObject({ erased: 1 });
    await until(
      () => api('GET', `/surveys/${surveyId}/summary`),
      (r) => r.body.summary?.responses?.started === 2,
      'the erased response uncounted',
    );

    // What is written after the restore reaches every consumer of the copy's stream.
    const idea = (await api('POST', '/ideas', { title: 'Written after the restore', description: 'Seen by the webhook' })).body.data;
    await receiver.waitForRequests(1, {
      timeoutMs: 60_000,
      filter: (request) => request.json?.type === 'idea.submitted' && request.json?.data?.ideaId === idea.id,
    });
    const response = await api('POST', `/surveys/${surveyId}/responses`, {
      answers: { plan: 'pro', channels: ['mail'], favourite: 'mail', score: 7 },
      respondent: { email: 'dee@example.com' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    await until(
      () => api('GET', `/surveys/${surveyId}/summary`),
      (r) => r.body.summary?.responses?.started === 3,
      'the response written after the restore summarised',
    );
    const newArticle = (
      await api('POST', '/knowledge-bank/articles', {
        categoryId: category.id,
        titleEn: 'Close the billing account',
        blocks: [{ type: 'paragraph', text: { en: [{ text: 'Closing the account ends billing.' }] } }],
      })
    ).body.article;
    expect((await api('POST', `/knowledge-bank/articles/${newArticle.id}/publish`)).status).toBe(200);
    await until(
      () => api('GET', '/knowledge-bank/search?q=account'),
      (r) => r.body.results?.some((result: { title: string }) => result.title === 'Close the billing account'),
      'the article published after the restore searchable',
    );
    await stop(second);
  });
});
