/**
 * What each request costs in DynamoDB capacity, for the cost table (`npm run bench:costs`): with
 * `SANDBOX_COST_LOG=<file>` every DynamoDB call of a sandbox invocation asks for
 * `ReturnConsumedCapacity: TOTAL` and the units are added up per request, then appended to the file as
 * one JSON line `{operationId, status, readUnits, writeUnits, ms, calls}`; a stream or queue consumer's
 * invocation too, under the function's name (local/event-source-mappings.ts, for bench:recovery). On-demand tables bill one
 * read or write request unit per capacity unit consumed, so these are the billed units:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html
 * Off unless the variable is set: the requests then are exactly what the functions send in AWS.
 */
import { appendFileSync } from 'node:fs';

export interface ConsumedCapacity {
  readUnits: number;
  writeUnits: number;
}

const READ_COMMANDS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand']);
/** The document client's commands answer to the same names without "Item(s)" in some cases. */
const DOCUMENT_READ_COMMANDS = new Set(['GetCommand', 'BatchGetCommand', 'TransactGetCommand']);

export const costLogFile = (): string | undefined => process.env.SANDBOX_COST_LOG || undefined;

interface InstrumentableClient {
  middlewareStack: { add: (mw: never, options: { step: 'initialize'; name: string }) => void };
}

/** Adds every call's consumed units to `current()` (the invocation's tally), when there is one. */
export function measureConsumedCapacity(client: InstrumentableClient, current: () => ConsumedCapacity | undefined): void {
  const measure = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const tally = current();
    if (!tally) return next(args);
    const input = (args as { input: { ReturnConsumedCapacity?: string } }).input;
    input.ReturnConsumedCapacity ??= 'TOTAL';
    const result = (await next(args)) as { output?: { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] } };
    const consumed = result.output?.ConsumedCapacity;
    const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    const name = context.commandName ?? '';
    if (READ_COMMANDS.has(name) || DOCUMENT_READ_COMMANDS.has(name)) tally.readUnits += units;
    else tally.writeUnits += units;
    return result;
  };
  client.middlewareStack.add(measure as never, { step: 'initialize', name: 'sandboxConsumedCapacity' });
}

export function logCost(file: string, line: { operationId: string; status: number; ms: number; calls: number } & ConsumedCapacity): void {
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
