/** fauxqs, an in-process SQS emulator (Node >= 22.5), for the webhook delivery pipeline. */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startFauxqs } from 'fauxqs';
import type { RunningService } from './dynamodb-local.ts';

export async function startSqsEmulator(options: { port: number; dataDir?: string }): Promise<RunningService> {
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const server = await startFauxqs({ port: options.port, logger: false, dataDir });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
