/**
 * Counts the AWS calls each sandbox invocation makes, so developers (and the tests) can see the
 * DynamoDB calls of every operation in the `X-Sandbox-DynamoDB-Calls` response header (and their
 * sequential depth in `X-Sandbox-DynamoDB-Round-Trips`), and
 * evaluates each DynamoDB request against the synthesized IAM policy of the function sending it
 * (local/iam/), as IAM does in AWS: a request the deployed policy would deny fails in the sandbox
 * and the tests with AccessDeniedException, not after a deploy.
 * AsyncLocalStorage keeps concurrent requests' counts apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConsumedCapacity } from './consumed-capacity.ts';
import type { FunctionPolicy, SandboxAccount } from './iam/function-policies.ts';
import { checkDynamoDbRequest } from './iam/policy-check.ts';

export interface InvocationStats {
  dynamodbCalls: number;
  /**
   * Sequential depth: a call that starts while none of this invocation's is in flight starts a round
   * trip; calls sent together (Promise.all) share one (X-Sandbox-DynamoDB-Round-Trips).
   */
  dynamodbRoundTrips?: number;
  /** Calls of this invocation in flight now. */
  dynamodbInFlight?: number;
  dynamodbCommands: string[];
  /** The handler file of the function running (its policy's key); undefined: a caller outside any function, not checked. */
  handler?: string;
  /** The capacity units its DynamoDB calls consumed, when the sandbox measures them (consumed-capacity.ts). */
  capacity?: ConsumedCapacity;
}

export const invocationStats = new AsyncLocalStorage<InvocationStats>();

/** Every function's synthesized policy, by handler file, and the account the sandbox's table lives in. */
export interface SandboxIam {
  policies: ReadonlyMap<string, FunctionPolicy>;
  account: SandboxAccount;
}

interface InstrumentableClient {
  middlewareStack: { add: (mw: never, options: { step: 'initialize'; name: string }) => void };
}

export function countDynamoDbCalls(client: InstrumentableClient, iam: SandboxIam): void {
  const counter = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const stats = invocationStats.getStore();
    if (!stats) return next(args);
    if (!stats.dynamodbInFlight) stats.dynamodbRoundTrips = (stats.dynamodbRoundTrips ?? 0) + 1;
    stats.dynamodbInFlight = (stats.dynamodbInFlight ?? 0) + 1;
    try {
      stats.dynamodbCalls++;
      stats.dynamodbCommands.push(context.commandName ?? 'unknown');
      if (stats.handler !== undefined) {
        // A function the stack does not deploy has no policy: every request is denied.
        const input = (args as { input?: unknown }).input;
        await checkDynamoDbRequest(iam.policies.get(stats.handler), iam.account, context.commandName ?? 'unknown', input);
      }
      return await next(args);
    } finally {
      stats.dynamodbInFlight -= 1;
    }
  };
  client.middlewareStack.add(counter as never, { step: 'initialize', name: 'sandboxDynamoDbCallCounter' });
}
