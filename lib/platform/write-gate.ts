/**
 * Writes wait for the rate limit's verdict; reads do not.
 *
 * Once a request's secret matched its key, authentication counts it in the key's rate-limit window
 * (one UpdateItem) and the operation runs beside that count instead of after it
 * (lib/platform/http/middleware/authorize.ts). Its reads change nothing, and what they found is
 * dropped when the count says the request was over its limit (429), so they need not wait. Anything
 * that changes something (a DynamoDB write, a queued message, an outbound POST) passes this gate
 * first: it waits for the verdict and fails with the 429 instead when the request is over its
 * limit, so no write ever happens for a request that was not answered.
 *
 * The verdict of the request running is kept in AsyncLocalStorage, as middy keeps per-request state
 * on its request: Lambda runs one request at a time per instance, but the sandbox runs many in one
 * process, and every promise the handler starts (awaited or not) inherits its own request's verdict.
 * Outside an API request (stream and queue consumers, cxctl) there is no verdict and nothing waits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const verdicts = new AsyncLocalStorage<Promise<void>>();

/**
 * Run `work` (the operation) behind `verdict`, which resolves when the request may change things and
 * rejects with the error to answer instead (429, or the count's own failure).
 */
export function runBehindVerdict<T>(verdict: Promise<void>, work: () => Promise<T>): Promise<T> {
  // Authorization awaits the verdict itself; an operation that writes nothing never awaits it here.
  verdict.catch(() => undefined);
  return verdicts.run(verdict, work);
}

/** Whether the code running is an operation behind its request's verdict (not authentication, not a consumer). */
export function runningBehindVerdict(): boolean {
  return verdicts.getStore() !== undefined;
}

/** Resolves once the current request may change something; at once outside an API request. */
export function writesAllowed(): Promise<void> {
  return verdicts.getStore() ?? Promise.resolve();
}

/**
 * The commands that only read, by AWS's naming convention across services (DynamoDB's GetItem,
 * Query, BatchGetItem, TransactGetItems; S3's GetObject, HeadObject, ListObjectsV2; SQS's
 * GetQueueAttributes): they pass at once. Every other command waits for the verdict.
 */
const READ_COMMAND = /^(Get|BatchGet|TransactGet|Query|Scan|Head|List|Describe)/;

export function isReadCommand(commandName: string): boolean {
  return READ_COMMAND.test(commandName);
}

interface GatedClient {
  middlewareStack: {
    add: (middleware: never, options: { step: 'initialize'; priority: 'high'; name: string }) => void;
  };
}

/**
 * Hold every command of `client` that is not a read until the verdict. Outermost (initialize, high
 * priority): the call starts, in the sandbox's timeline too, only once it is allowed.
 */
export function gateWrites<C extends GatedClient>(client: C): C {
  const gate = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    if (!isReadCommand(context.commandName ?? '')) await writesAllowed();
    return next(args);
  };
  client.middlewareStack.add(gate as never, { step: 'initialize', priority: 'high', name: 'writesWaitForRateLimitVerdict' });
  return client;
}
