/**
 * Loads handler modules the way Lambda does (once per file, module scope runs once) and invokes
 * them with a Lambda-shaped context.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { runUntilCutOff } from './invocation-cutoff.ts';

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

/**
 * `SANDBOX_FUNCTION_TIMEOUT_SECONDS`: a shorter timeout for every function, to see in the sandbox what
 * clients see when a function times out (a test sets it with a slowed DynamoDB); unset, each function
 * keeps its own (its route's `timeoutSeconds`, or DEFAULT_TIMEOUT_SECONDS).
 */
export function sandboxFunctionTimeoutSeconds(): number | undefined {
  const raw = process.env.SANDBOX_FUNCTION_TIMEOUT_SECONDS;
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 900) {
    throw new Error(`SANDBOX_FUNCTION_TIMEOUT_SECONDS must be a number of seconds above 0 and at most 900 (Lambda's limit), got "${raw}"`);
  }
  return seconds;
}

/** A function ran past its timeout: Lambda stops it and reports the invocation failed. */
export class FunctionTimeoutError extends Error {
  constructor(readonly timeoutSeconds: number) {
    super(`Task timed out after ${timeoutSeconds.toFixed(2)} seconds`);
  }
}

/**
 * Invoke `handler` as Lambda does: its context's deadline is the function timeout (or
 * SANDBOX_FUNCTION_TIMEOUT_SECONDS when shorter), and the invocation fails with FunctionTimeoutError
 * once it runs past it. Lambda resets the execution environment there ("Failures during the invoke
 * phase", https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html): nothing of the
 * invocation goes on. The sandbox cannot stop the handler's code, but it cuts off every request the
 * invocation has in flight or sends later (invocation-cutoff.ts), telling `onCutOff` which, so none of
 * its writes lands after the timeout. A handler that answered in time is left alone: middy answers
 * 5 ms before the timeout (its `timeoutEarlyInMillis`), and then Lambda only freezes the environment,
 * whose leftover work resumes with the instance's next invocation.
 */
export async function invokeWithTimeout<E, R>(
  handler: Handler<E, R>,
  event: E,
  functionName: string,
  timeoutSeconds: number,
  onCutOff?: (request: string) => void,
): Promise<R> {
  const seconds = Math.min(timeoutSeconds, sandboxFunctionTimeoutSeconds() ?? timeoutSeconds);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new FunctionTimeoutError(seconds);
      controller.abort(error);
      reject(error);
    }, seconds * 1000);
  });
  try {
    return await Promise.race([
      runUntilCutOff(controller.signal, () => handler(event, lambdaContext(functionName, seconds * 1000)), onCutOff),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
