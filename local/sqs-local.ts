/** fauxqs, an in-process SQS emulator (Node >= 22.5), for the webhook delivery pipeline, on 127.0.0.1 only. */
import { mkdirSync } from 'node:fs';
import { Server } from 'node:net';
import { resolve } from 'node:path';
import { startFauxqs } from 'fauxqs';
import type { RunningService } from './dynamodb-local.ts';
import { assertPortsFree } from './ports.ts';

/**
 * fauxqs 2.x always listens on 0.0.0.0 (its `host` option only names queue URLs), which would put
 * the sandbox's queues on every network the machine is on. While it starts (nothing else of the
 * sandbox listens in this process then), a listen on 0.0.0.0 is moved to 127.0.0.1.
 */
async function onLoopback<T>(start: () => Promise<T>): Promise<T> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const [first] = args;
    if (typeof first === 'object' && first !== null && (first as { host?: string }).host === '0.0.0.0') {
      args[0] = { ...first, host: '127.0.0.1' };
    }
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}

export async function startSqsEmulator(options: { port: number; dataDir?: string }): Promise<RunningService> {
  await assertPortsFree([{ variable: 'SQS_PORT', port: options.port }]);
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const server = await onLoopback(() => startFauxqs({ port: options.port, logger: false, dataDir }));
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
