/**
 * What a timed-out invocation may still send: nothing. Lambda stops a function at its timeout ("the
 * amount of time that Lambda allows a function to run before stopping it",
 * https://docs.aws.amazon.com/lambda/latest/api/API_FunctionConfiguration.html), so a write the
 * handler had not sent by then never reaches DynamoDB, SQS or a webhook receiver. The sandbox runs
 * every function in one Node process and cannot stop a handler's code, so it stops what the code
 * sends instead: once an invocation timed out, each outgoing request it made is destroyed, the one in
 * flight at the timeout (as its connection dies with the environment Lambda resets) and every one it makes after,
 * before a byte of it is written. That covers every client a handler has: the AWS SDK's (DynamoDB,
 * SQS, S3: its node:http handler), the outbound POSTs and probes of lib/platform/outbound/ (node:http,
 * node:https), and fetch (the MCP server's calls to the API).
 *
 * Per invocation, never globally: the SDK clients are created once at module scope and shared by
 * every invocation running in this process, so a request is tied to the invocation whose async
 * context made it (AsyncLocalStorage), and a timeout cuts only that invocation's requests.
 * Node publishes each http(s) request it creates on the `http.client.request.created` diagnostics
 * channel, synchronously in its caller's context (https://nodejs.org/api/diagnostics_channel.html#http);
 * fetch (undici) does not go through node:http, so it gets the invocation's signal instead.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { setMaxListeners } from 'node:events';
import type { ClientRequest } from 'node:http';

/** The error a cut-off request fails with: not one the SDK retries (it is no network or throttling error). */
class InvocationCutOffError extends Error {
  constructor(reason: string) {
    super(`Request cut off: ${reason}, and Lambda stops a function at its timeout`);
    this.name = 'InvocationCutOffError';
  }
}

interface Invocation {
  signal: AbortSignal;
  /** Told of every request the timeout cut off, named (`DynamoDB TransactWriteItems`, `POST receiver.example/hook`). */
  onCutOff: (request: string) => void;
}

const invocations = new AsyncLocalStorage<Invocation>();

function reasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : 'the function timed out';
}

/** An AWS request by its service and action (its JSON protocol's X-Amz-Target), else by method and address. */
function nameOf(request: ClientRequest): string {
  const target = request.getHeader('x-amz-target');
  if (typeof target === 'string') {
    const [service, action] = target.split('.');
    return `${service?.startsWith('DynamoDB') ? 'DynamoDB' : service === 'AmazonSQS' ? 'SQS' : service} ${action}`;
  }
  return `${request.method} ${request.host}${request.path}`;
}

function onRequestCreated(message: unknown): void {
  const invocation = invocations.getStore();
  if (!invocation) return;
  const request = (message as { request: ClientRequest }).request;
  const cut = () => {
    if (request.destroyed) return;
    invocation.onCutOff(nameOf(request));
    request.destroy(new InvocationCutOffError(reasonOf(invocation.signal)));
  };
  if (invocation.signal.aborted) {
    cut();
    return;
  }
  invocation.signal.addEventListener('abort', cut, { once: true });
  request.once('close', () => invocation.signal.removeEventListener('abort', cut));
}

let installed = false;

/** Hooks node:http and fetch once per process; outside an invocation both behave as before. */
function install(): void {
  if (installed) return;
  installed = true;
  subscribe('http.client.request.created', onRequestCreated);
  const fetchOf = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const invocation = invocations.getStore();
    if (!invocation) return fetchOf(input, init);
    const name = `fetch ${input instanceof Request ? input.url : String(input)}`;
    if (invocation.signal.aborted) {
      invocation.onCutOff(name);
      return Promise.reject(new InvocationCutOffError(reasonOf(invocation.signal)));
    }
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = own ? AbortSignal.any([own, invocation.signal]) : invocation.signal;
    return fetchOf(input, { ...init, signal }).catch((error: unknown) => {
      if (!invocation.signal.aborted) throw error;
      invocation.onCutOff(name);
      throw new InvocationCutOffError(reasonOf(invocation.signal));
    });
  };
}

/**
 * Runs `work` as one invocation: once `signal` aborts, every request `work` (and anything it started,
 * awaited or not) has in flight or sends later is cut off, and `onCutOff` is told which.
 */
export function runUntilCutOff<T>(
  signal: AbortSignal,
  work: () => Promise<T>,
  onCutOff: (request: string) => void = () => undefined,
): Promise<T> {
  install();
  // One listener per request in flight: a handler sending many at once is no leak.
  setMaxListeners(0, signal);
  return invocations.run({ signal, onCutOff }, work);
}
