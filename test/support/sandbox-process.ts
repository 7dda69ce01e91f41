/**
 * A sandbox of its own for a test that needs one apart from the shared one (a given DATA_DIR, an older
 * table): `npm start` in a child process on free ports, as a user runs it, and cxctl against it as an
 * operator runs it (`bin/cxctl.mjs`, on this Node). Nothing of the test run's own sandbox leaks in.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { freePorts } from '../../local/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface SandboxProcess {
  apiUrl: string;
  dynamodbEndpoint: string;
  ports: { PORT: number; DYNAMODB_PORT: number; SQS_PORT: number };
  output(): string;
  /** Resolves once it serves (after the release gate, when it was held there). */
  ready(): Promise<void>;
  /** Ctrl-C, and waits for it to exit. */
  stop(): Promise<void>;
  /**
   * SIGKILL to the whole process tree (npm, the sandbox's node, DynamoDB Local's JVM), as a function
   * dies with its host: nothing runs a shutdown, nothing is flushed. Waits until every process of it
   * is gone, so a restart on the same DATA_DIR finds the lock of a dead pid (local/data-lock.ts).
   */
  kill(): Promise<void>;
}

/** What `npm start` prints once it serves. */
const READY = 'Ctrl-C stops everything.';

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `npm start` on `dataDir`, with `env` added to what a user's shell would give it (a sandbox setting,
 * say). `heldAtGate`: the table has not finished a migration this release requires, so the sandbox
 * holds at the release gate (lib/platform/data/release-gate.ts): this resolves once it says so,
 * `ready()` once it serves. `killable`: in a process group of its own, for `kill()`.
 */
export async function startSandboxProcess(
  dataDir: string,
  { env = {}, heldAtGate = false, killable = false }: { env?: Record<string, string>; heldAtGate?: boolean; killable?: boolean } = {},
): Promise<SandboxProcess> {
  const [PORT, DYNAMODB_PORT, SQS_PORT] = (await freePorts(3)) as [number, number, number];
  const ports = { PORT, DYNAMODB_PORT, SQS_PORT };
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      // As the shared test sandbox: webhook receivers on 127.0.0.1, retries within seconds.
      WEBHOOK_RETRY_DELAYS: '1,1,1',
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so kill() reaches the JVM too (local/dynamodb-local.ts spawns it in the
    // sandbox's group, and kills it only on an exit the sandbox's node lives to see). Only when asked:
    // a group of its own no longer hears a terminal's Ctrl-C with the test run.
    detached: killable,
  });
  const output = collect(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const group = child.pid!;
  // A process of its group still running (a zombie waiting for a reaper is gone for this purpose).
  const groupAlive = () =>
    spawnSync('ps', ['-eo', 'pgid=,stat='], { encoding: 'utf8' })
      .stdout.split('\n')
      .some((line) => {
        const [pgid, stat] = line.trim().split(/\s+/);
        return Number(pgid) === group && !stat?.startsWith('Z');
      });
  const started = async (marker: string, what: string) => {
    await until(output, (text) => text.includes(marker) || child.exitCode !== null, what, 240_000);
    if (child.exitCode !== null) throw new Error(`The sandbox did not start:\n${output()}`);
  };
  await started(heldAtGate ? '✖ Table ' : READY, heldAtGate ? 'the sandbox to hold at the release gate' : 'the sandbox to start');
  return {
    apiUrl: `http://127.0.0.1:${ports.PORT}/api/v1`,
    dynamodbEndpoint: `http://127.0.0.1:${ports.DYNAMODB_PORT}`,
    ports,
    output,
    ready: () => started(READY, 'the sandbox to start'),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
    kill: async () => {
      if (!killable) throw new Error('kill() needs startSandboxProcess(…, { killable: true })');
      if (groupAlive()) process.kill(-group, 'SIGKILL');
      await exited;
      await until(groupAlive, (alive) => !alive, 'the killed sandbox to be gone', 30_000);
    },
  };
}

export interface CxctlRun {
  /** Lines printed so far (stdout and stderr). */
  output(): string;
  /** Exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

/** `cxctl …` against the sandbox at `dynamodbEndpoint`, running in the background. */
export function cxctl(dynamodbEndpoint: string, ...args: string[]): CxctlRun {
  const child = spawn(process.execPath, ['bin/cxctl.mjs', ...args, '--endpoint', dynamodbEndpoint], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TABLE_NAME: 'cx-portal', WORKSPACE_DOMAIN: 'localhost' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { output, exited, kill: (signal) => child.kill(signal) };
}
