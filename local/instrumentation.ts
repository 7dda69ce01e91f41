/**
 * Counts the AWS calls each sandbox invocation makes, so developers (and the tests) can see the
 * DynamoDB round trips of every operation in the `X-Sandbox-DynamoDB-Calls` response header.
 * AsyncLocalStorage keeps concurrent requests' counts apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface InvocationStats {
  dynamodbCalls: number;
  dynamodbCommands: string[];
}

export const invocationStats = new AsyncLocalStorage<InvocationStats>();

interface InstrumentableClient {
  middlewareStack: { add: (mw: never, options: { step: 'initialize'; name: string }) => void };
}

export function countDynamoDbCalls(client: InstrumentableClient): void {
  const counter = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const stats = invocationStats.getStore();
    if (stats) {
      stats.dynamodbCalls++;
      stats.dynamodbCommands.push(context.commandName ?? 'unknown');
    }
    return next(args);
  };
  client.middlewareStack.add(counter as never, { step: 'initialize', name: 'sandboxDynamoDbCallCounter' });
}
