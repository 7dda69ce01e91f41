/**
 * Records the DynamoDB calls each sandbox invocation makes, each with its start and end, so
 * developers (and the tests) can see every operation's round trips in response headers:
 * `X-Sandbox-DynamoDB-Calls`, how many calls it made, and `X-Sandbox-DynamoDB-Depth`, its sequential
 * depth: the longest chain of calls each starting after the previous one ended, which is what a
 * request waits for when every call costs a round trip (calls sent together count once). It also
 * evaluates each DynamoDB request against the synthesized IAM policy of the function sending it
 * (local/iam/), as IAM does in AWS: a request the deployed policy would deny fails in the sandbox
 * and the tests with AccessDeniedException, not after a deploy.
 * AsyncLocalStorage keeps concurrent requests' records apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isReadCommand, runningBehindVerdict } from '../lib/platform/write-gate.ts';
import type { ConsumedCapacity } from './consumed-capacity.ts';
import type { FunctionPolicy, SandboxAccount } from './iam/function-policies.ts';
import { checkDynamoDbRequest } from './iam/policy-check.ts';

/** One DynamoDB call: when it was sent and when its answer was back (performance.now(), ms). */
export interface DynamoDbCall {
  command: string;
  start: number;
  /** Undefined while it is in flight. */
  end?: number;
  /**
   * `count`: a write of authentication, before the operation runs (the key's rate-limit count);
   * `read-beside-count`: a read of the operation, which the code sends without waiting for that count
   * (lib/platform/write-gate.ts). Such a read is never after the count by design, however late a
   * loaded machine happens to send it.
   */
  role?: 'count' | 'read-beside-count';
}

export interface InvocationStats {
  dynamodbCalls: number;
  dynamodbCommands: string[];
  /** Every call with its start and end, when the invocation's depth is wanted (an API request). */
  dynamodbTimeline?: DynamoDbCall[];
  /** The handler file of the function running (its policy's key); undefined: a caller outside any function, not checked. */
  handler?: string;
  /** The capacity units its DynamoDB calls consumed, when the sandbox measures them (consumed-capacity.ts). */
  capacity?: ConsumedCapacity;
  /**
   * The usage writes the instance made during it (lib/platform/data/usage-writes.ts): what earlier
   * requests left, written beside this one's work, not the operation's own calls, so counted apart.
   */
  usageWrites?: number;
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

/**
 * Count `client`'s calls in the invocation that sends them, each checked against its function's
 * policy. `apart`: the usage writes' client, whose calls are counted as `usageWrites`, outside the
 * operation's calls and their depth.
 */
export function countDynamoDbCalls(client: InstrumentableClient, iam: SandboxIam, options: { apart?: boolean } = {}): void {
  const counter = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const stats = invocationStats.getStore();
    if (stats && options.apart) {
      stats.usageWrites = (stats.usageWrites ?? 0) + 1;
      if (stats.handler !== undefined) {
        await checkDynamoDbRequest(
          iam.policies.get(stats.handler),
          iam.account,
          context.commandName ?? 'unknown',
          (args as { input?: unknown }).input,
        );
      }
      return next(args);
    }
    if (stats) {
      stats.dynamodbCalls++;
      stats.dynamodbCommands.push(context.commandName ?? 'unknown');
      if (stats.handler !== undefined) {
        // A function the stack does not deploy has no policy: every request is denied.
        const input = (args as { input?: unknown }).input;
        await checkDynamoDbRequest(iam.policies.get(stats.handler), iam.account, context.commandName ?? 'unknown', input);
      }
      if (stats.dynamodbTimeline) {
        const command = context.commandName ?? 'unknown';
        const behindVerdict = runningBehindVerdict();
        const role =
          !behindVerdict && !isReadCommand(command) ? 'count' : behindVerdict && isReadCommand(command) ? 'read-beside-count' : undefined;
        const call: DynamoDbCall = { command, start: performance.now(), ...(role ? { role } : {}) };
        stats.dynamodbTimeline.push(call);
        try {
          return await next(args);
        } finally {
          call.end = performance.now();
        }
      }
    }
    return next(args);
  };
  client.middlewareStack.add(counter as never, { step: 'initialize', name: 'sandboxDynamoDbCallCounter' });
}

/**
 * The sequential depth of a set of calls: the number of calls in the longest chain in which each
 * call started only after the previous one had ended. Calls sent together (Promise.all) overlap and
 * so count once; a call sent after another's answer adds one. A call still in flight has not ended.
 * The depth is the code's, not the scheduler's: an operation's read, which goes out beside the
 * rate-limit count rather than after it, is never chained after the count, though a busy core may
 * send it after the count's answer came back (its writes wait for the count, and chain after it).
 */
export function sequentialDepth(calls: readonly DynamoDbCall[]): number {
  const byStart = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  for (const [i, call] of byStart.entries()) {
    let before = 0;
    for (let j = 0; j < i; j++) {
      const earlier = byStart[j]!;
      if (earlier.role === 'count' && call.role === 'read-beside-count') continue;
      if (earlier.end !== undefined && earlier.end <= call.start) before = Math.max(before, depth[j]!);
    }
    depth.push(before + 1);
  }
  return Math.max(0, ...depth);
}
