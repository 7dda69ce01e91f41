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

function lambdaContext(functionName: string, timeoutMs: number): Context {
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

/** A function ran past its timeout: Lambda would stop it and report the invocation failed. */
export class FunctionTimeoutError extends Error {
  constructor(readonly timeoutSeconds: number) {
    super(`Task timed out after ${timeoutSeconds} seconds`);
  }
}

/**
 * Invoke `handler` as Lambda does: its context's deadline is the function timeout, and the
 * invocation fails with FunctionTimeoutError once it runs past it. Unlike Lambda, the sandbox cannot
 * stop the handler: it runs on in the background, but its answer is never used.
 */
export async function invokeWithTimeout<E, R>(handler: Handler<E, R>, event: E, functionName: string, timeoutSeconds: number): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FunctionTimeoutError(timeoutSeconds)), timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([handler(event, lambdaContext(functionName, timeoutSeconds * 1000)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
