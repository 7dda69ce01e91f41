/**
 * What one request spends, as AWS bills it, tallied while it runs (AsyncLocalStorage, as the write
 * gate keeps its verdict: the sandbox runs many requests in one process, and every promise a
 * handler starts inherits its own request's tally). DynamoDB's own figure of each call's units
 * (`ReturnConsumedCapacity: TOTAL`, asked on every data call; DynamoDB Local answers it too) and the
 * calls of the other clients an operation sends through (SQS). Outside a request nothing is tallied.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Tally {
  readUnits: number;
  writeUnits: number;
  sqsRequests: number;
}

const tallies = new AsyncLocalStorage<Tally>();

export function newTally(): Tally {
  return { readUnits: 0, writeUnits: 0, sqsRequests: 0 };
}

export function runMetered<T>(tally: Tally, work: () => Promise<T>): Promise<T> {
  return tallies.run(tally, work);
}

/** The data-plane calls that take ReturnConsumedCapacity (DynamoDB API reference), by the SDK's command names. */
const CAPACITY_COMMANDS = /^(Get|Put|Update|Delete|Query|Scan|BatchGet|BatchWrite|TransactGet|TransactWrite)(Item|Items)?Command$/;
const READS = /^(Get|Query|Scan|BatchGet|TransactGet)/;

interface ClientWithMiddleware {
  middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void };
}

type Consumed = { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;

/**
 * Every data call of `client` asks DynamoDB for the capacity it consumed, and the request's tally
 * gets it: reads' units as read units, writes' as write units. A call that failed reports nothing
 * (DynamoDB bills a write whose condition failed, but does not say so in the error): those units
 * are not in the usage.
 */
export function meterCapacity<C extends ClientWithMiddleware>(client: C): C {
  const meter = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const name = context.commandName ?? '';
    if (!CAPACITY_COMMANDS.test(name)) return next(args);
    const input = (args as { input: { ReturnConsumedCapacity?: string } }).input;
    input.ReturnConsumedCapacity ??= 'TOTAL';
    const result = (await next(args)) as { output?: { ConsumedCapacity?: Consumed } };
    const tally = tallies.getStore();
    const consumed = result.output?.ConsumedCapacity;
    if (tally && consumed) {
      const units = (Array.isArray(consumed) ? consumed : [consumed]).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (READS.test(name)) tally.readUnits += units;
      else tally.writeUnits += units;
    }
    return result;
  };
  client.middlewareStack.add(meter as never, { step: 'initialize', name: 'usageConsumedCapacity' });
  return client;
}

/** Every call of an SQS client counts one SQS request in the request's tally (SQS bills per request). */
export function meterSqsRequests<C extends ClientWithMiddleware>(client: C): C {
  const meter = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
    const tally = tallies.getStore();
    if (tally) tally.sqsRequests++;
    return next(args);
  };
  client.middlewareStack.add(meter as never, { step: 'initialize', name: 'usageSqsRequests' });
  return client;
}
