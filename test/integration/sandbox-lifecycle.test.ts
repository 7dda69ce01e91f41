/**
 * `npm start` as a user, an IDE or a process manager runs it: a taken port is one line naming its
 * variable, SIGTERM and SIGHUP stop everything as Ctrl-C does, the services listen on 127.0.0.1
 * only, a DynamoDB Local that dies stops the sandbox loudly, and one DATA_DIR serves one sandbox.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePorts } from '../../local/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');

interface Run {
  child: ChildProcess;
  dataDir: string;
  ports: { PORT: number; DYNAMODB_PORT: number; SQS_PORT: number };
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: Run[] = [];

async function npmStart(
  ports?: Partial<Run['ports']>,
  dataDir = mkdtempSync(join(tmpdir(), 'sandbox-lifecycle-')),
  settings: Record<string, string> = {},
): Promise<Run> {
  const [PORT, DYNAMODB_PORT, SQS_PORT] = (await freePorts(3)) as [number, number, number];
  const all = { PORT, DYNAMODB_PORT, SQS_PORT, ...ports };
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    // Only what npm, node and java need, and the sandbox's own settings: nothing of this test run's sandbox.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      ...Object.fromEntries(Object.entries(all).map(([k, v]) => [k, String(v)])),
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const run = { child, dataDir, ports: all, output: () => output, exited };
  runs.push(run);
  return run;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function ready(run: Run): Promise<void> {
  // As long as the other tests give npm start (test/support/sandbox-process.ts): a minute on a quiet
  // 2-core machine, past two when other test runs share it.
  await until(() => run.output().includes('Ctrl-C stops everything.') || run.child.exitCode !== null, 'the sandbox to start', 240_000);
  expect(run.output()).toContain('Ctrl-C stops everything.');
}

/** Processes of this run still alive: DATA_DIR is on the JVM's command line (-dbPath) and in nothing else's. */
function jvmsOf(run: Run): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(run.dataDir) && line.includes('DynamoDBLocal'));
}

function listening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function expectAllGone(run: Run): Promise<void> {
  for (const port of Object.values(run.ports)) {
    await until(async () => !(await listening(port)), `port ${port} to be free`, 15_000);
  }
  await until(() => jvmsOf(run).length === 0, 'the DynamoDB Local JVM to end', 15_000);
}

afterEach(async () => {
  for (const run of runs.splice(0)) {
    for (const line of jvmsOf(run)) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    rmSync(run.dataDir, { recursive: true, force: true });
  }
});

describe('npm start', { timeout: 360_000 }, () => {
  it('listens on 127.0.0.1 only (API, DynamoDB Local, SQS), and stops everything on SIGTERM sent to npm', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
    const run = await npmStart();
    await ready(run);
    // The banner links the reference page a newcomer reads first.
    expect(run.output()).toContain(`Reference    http://127.0.0.1:${run.ports.PORT}/api/v1/docs`);
    // …and the command that fills it with demo data, with every variable it needs for this sandbox.
    expect(run.output()).toContain(
      `  PORT=${run.ports.PORT} DYNAMODB_PORT=${run.ports.DYNAMODB_PORT} DATA_DIR=${run.dataDir} npx cxctl demo your-workspace\n`,
    );
    expect(run.output()).toContain(
      `Lost the key? DYNAMODB_PORT=${run.ports.DYNAMODB_PORT} DATA_DIR=${run.dataDir} npx cxctl key create --workspace your-workspace --all\n`,
    );
    // What cxctl reads to find it, while it runs.
    const file = JSON.parse(readFileSync(join(run.dataDir, 'sandbox.json'), 'utf8'));
    expect(file).toMatchObject({ dynamodbEndpoint: `http://127.0.0.1:${run.ports.DYNAMODB_PORT}`, tableName: 'cx-portal' });
    expect(jvmsOf(run)).toHaveLength(1);
    for (const port of Object.values(run.ports)) {
      expect(await listening(port), `port ${port} on 127.0.0.1`).toBe(true);
      if (external) expect(await listening(port, external), `port ${port} on ${external}`).toBe(false);
    }
    run.child.kill('SIGTERM');
    await run.exited;
    await expectAllGone(run);
    expect(existsSync(join(run.dataDir, 'sandbox.json'))).toBe(false);
  });

  it('prints commands that reach the table it serves: TABLE_NAME in them, and a key made as printed works', async () => {
    const run = await npmStart(undefined, undefined, { TABLE_NAME: 'cx-portal-restored' });
    await ready(run);
    const [, variables] = /^Lost the key\? (.*)npx cxctl key create --workspace your-workspace --all$/m.exec(run.output())!;
    expect(variables).toBe(`DYNAMODB_PORT=${run.ports.DYNAMODB_PORT} DATA_DIR=${run.dataDir} TABLE_NAME=cx-portal-restored `);
    expect(run.output()).toContain(
      `  PORT=${run.ports.PORT} DYNAMODB_PORT=${run.ports.DYNAMODB_PORT} DATA_DIR=${run.dataDir} TABLE_NAME=cx-portal-restored npx cxctl demo your-workspace\n`,
    );
    // As a reader copies it into another shell: the variables printed, nothing else of this run's.
    const made = execFileSync('bash', ['-c', `${variables}node bin/cxctl.mjs key create --workspace your-workspace --all --json`], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      encoding: 'utf8',
    });
    const res = await fetch(`http://127.0.0.1:${run.ports.PORT}/api/v1/me`, {
      headers: { 'X-Service-Workspace-Host': 'your-workspace.localhost', Authorization: `Bearer ${JSON.parse(made).key}` },
    });
    expect(res.status).toBe(200);
    // DATA_DIR alone finds it too: cxctl reads the ports and the table from DATA_DIR/sandbox.json.
    const listed = execFileSync('bash', ['-c', `DATA_DIR=${run.dataDir} node bin/cxctl.mjs key list --workspace your-workspace --json`], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      encoding: 'utf8',
    });
    expect(JSON.parse(listed)).toHaveLength(2);
    run.child.kill('SIGTERM');
    await run.exited;
  });

  it('delays every DynamoDB call as a round trip in a region with SANDBOX_DYNAMODB_LATENCY_MS, and refuses a mistyped one', async () => {
    const mistyped = await npmStart(undefined, undefined, { SANDBOX_DYNAMODB_LATENCY_MS: '4ms' });
    expect((await mistyped.exited).code).toBe(1);
    expect(mistyped.output()).toContain('✖ SANDBOX_DYNAMODB_LATENCY_MS must be a number of milliseconds from 0 to 1000, got "4ms"');
    expect(jvmsOf(mistyped)).toEqual([]);

    const run = await npmStart(undefined, undefined, { SANDBOX_DYNAMODB_LATENCY_MS: '150' });
    await ready(run);
    expect(run.output()).toContain('DynamoDB calls delayed by about 150 ms each');
    const key = /^ {2}(cxk_\w+)$/m.exec(run.output())![1]!;
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${run.ports.PORT}/api/v1/me`, {
      headers: { 'X-Service-Workspace-Host': 'your-workspace', Authorization: `Bearer ${key}` },
    });
    const elapsed = performance.now() - started;
    expect([res.status, res.headers.get('x-sandbox-dynamodb-depth')]).toEqual([200, '2']);
    // Two round trips one after the other, each longer than 0.4 × 150 ms but once in about a million
    // draws (log-normal, σ = 0.3): a lower bound that a loaded machine can only make easier to pass.
    expect(elapsed).toBeGreaterThan(2 * 0.4 * 150);
    run.child.kill('SIGTERM');
    await run.exited;
  });

  it('stops everything on SIGHUP sent to npm (which npm does not forward)', async () => {
    const run = await npmStart();
    await ready(run);
    run.child.kill('SIGHUP');
    await run.exited;
    await expectAllGone(run);
  });

  it('stops everything and releases DATA_DIR on SIGINT sent to npm (kill -INT, not only Ctrl-C)', async () => {
    const run = await npmStart();
    await ready(run);
    const lockFile = join(run.dataDir, 'sandbox.lock');
    expect(existsSync(lockFile)).toBe(true);
    run.child.kill('SIGINT');
    // npm passes SIGINT on to the script's process only; before `exec`, that was a shell that kept it.
    const exited = await Promise.race([run.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000))]);
    expect(exited, run.output()).not.toBe('timeout');
    expect(run.output()).toContain('SIGINT: stopping the sandbox');
    await expectAllGone(run);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses taken ports before starting anything: one line naming each and its variable, no stack, exit 1', async () => {
    // Another DynamoDB Local and SQS emulator (or anything) already on the ports: the sandbox must not use them.
    const taken: Server[] = [createServer(() => undefined), createServer(() => undefined)];
    const ports = await freePorts(2);
    await Promise.all(taken.map((server, i) => new Promise<void>((r) => server.listen(ports[i], '127.0.0.1', r))));
    try {
      const run = await npmStart({ DYNAMODB_PORT: ports[0], SQS_PORT: ports[1] });
      const { code } = await run.exited;
      expect(code).toBe(1);
      const errorLines = run
        .output()
        .split('\n')
        .filter((line) => line.includes('✖') || /^\s+at /.test(line));
      expect(errorLines).toEqual([
        `✖ Ports ${ports[0]} (DYNAMODB_PORT) and ${ports[1]} (SQS_PORT) are already in use, probably by another sandbox: ` +
          'stop it, or set DYNAMODB_PORT and SQS_PORT to free ports.',
      ]);
      expect(run.output()).not.toContain('Sandbox ready');
      expect(jvmsOf(run)).toEqual([]);
      expect(await listening(run.ports.PORT)).toBe(false);
    } finally {
      for (const server of taken) server.close();
    }
  });

  it('refuses a DATA_DIR another sandbox holds: one line naming DATA_DIR, exit 1, no second DynamoDB Local', async () => {
    const first = await npmStart();
    await ready(first);
    const lockFile = join(first.dataDir, 'sandbox.lock');
    const owner = Number(readFileSync(lockFile, 'utf8'));
    const second = await npmStart(undefined, first.dataDir);
    const { code } = await second.exited;
    expect(code).toBe(1);
    const errorLines = second
      .output()
      .split('\n')
      .filter((line) => line.includes('✖') || /^\s+at /.test(line));
    expect(errorLines).toEqual([
      `✖ DATA_DIR ${first.dataDir} is in use by another sandbox (pid ${owner}): stop it, or set DATA_DIR to another folder.`,
    ]);
    expect(second.output()).not.toContain('Sandbox ready');
    // The JVM's command line names the folder: still only the first sandbox's.
    expect(jvmsOf(first)).toHaveLength(1);
    expect(await listening(second.ports.PORT)).toBe(false);
    // The refused sandbox left the lock alone; the first one releases it when it stops.
    expect(Number(readFileSync(lockFile, 'utf8'))).toBe(owner);
    first.child.kill('SIGTERM');
    await first.exited;
    await expectAllGone(first);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over a lock left by a sandbox that died, saying so, and releases it on SIGHUP', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-lifecycle-'));
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((done) => dead.once('exit', done));
    writeFileSync(join(dataDir, 'sandbox.lock'), String(dead.pid));
    const run = await npmStart(undefined, dataDir);
    await ready(run);
    expect(run.output()).toContain(`Taking over ${join(dataDir, 'sandbox.lock')}: the sandbox that held it (pid ${dead.pid}) is gone.`);
    expect(Number(readFileSync(join(dataDir, 'sandbox.lock'), 'utf8'))).not.toBe(dead.pid);
    run.child.kill('SIGHUP');
    await run.exited;
    await expectAllGone(run);
    expect(existsSync(join(dataDir, 'sandbox.lock'))).toBe(false);
  });

  it('says so loudly and exits non-zero when DynamoDB Local dies', async () => {
    const run = await npmStart();
    await ready(run);
    const [jvm] = jvmsOf(run);
    process.kill(Number(jvm!.trim().split(/\s+/)[0]), 'SIGKILL');
    const { code } = await run.exited;
    expect(code).not.toBe(0);
    expect(run.output()).toMatch(/✖ DynamoDB Local \(pid \d+\) was killed \(SIGKILL\)\. Every request would fail from now on/);
    await expectAllGone(run);
    expect(existsSync(join(run.dataDir, 'sandbox.lock'))).toBe(false);
  });
});
