/**
 * Loads handler modules the way Lambda does (once per file, module scope runs once) and invokes
 * them with a Lambda-shaped context.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';

export type Handler<E = unknown, R = unknown> = (event: E, context: Context) => Promise<R>;

const ROOT = resolve(import.meta.dirname, '..');
const modules = new Map<string, Promise<{ handler: Handler }>>();

export function loadHandler<E, R>(file: string): Promise<Handler<E, R>> {
  let loaded = modules.get(file);
  if (!loaded) {
    loaded = import(pathToFileURL(resolve(ROOT, file)).href) as Promise<{ handler: Handler }>;
    modules.set(file, loaded);
  }
  return loaded.then((m) => {
    if (typeof m.handler !== 'function') throw new Error(`${file} does not export a handler`);
    return m.handler as Handler<E, R>;
  });
}

export function lambdaContext(functionName: string, timeoutMs = 29_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'sandbox',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
