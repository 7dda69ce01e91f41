/**
 * Counts the AWS calls each sandbox invocation makes, so developers (and the tests) can see the
 * DynamoDB round trips of every operation in the `X-Sandbox-DynamoDB-Calls` response header, and
 * denies a DynamoDB action the function does not declare, as its IAM role would in AWS: a missing
 * declaration fails in the sandbox and the tests, not after a deploy.
 * AsyncLocalStorage keeps concurrent requests' counts apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConsumedCapacity } from './consumed-capacity.ts';

export interface InvocationStats {
  dynamodbCalls: number;
  dynamodbCommands: string[];
  /** The DynamoDB actions the function may send (its route's or consumer's `table`); undefined: any. */
  allowedDynamoDbActions?: readonly string[];
  /**
   * What authentication may send besides (GetItem of the workspace, UpdateItem of the key or of a
   * failed-attempt counter), allowed only on those items: in AWS the UpdateItem grant is limited to
   * the rate-limit attributes, so a handler's own UpdateItem must still be declared.
   */
  authenticationActions?: readonly string[];
  /** The capacity units its DynamoDB calls consumed, when the sandbox measures them (consumed-capacity.ts). */
  capacity?: ConsumedCapacity;
}

/** Whether a call is authentication's own: the workspace read, or the key's or a source's counter. */
function isAuthenticationCall(action: string, key: { sk?: unknown } | undefined): boolean {
  // Document-client calls carry plain values, low-level ones attribute values ({S: …}).
  const raw = key?.sk as string | { S?: string } | undefined;
  const sk = typeof raw === 'string' ? raw : (raw?.S ?? '');
  if (action === 'GetItem') return sk === 'WORKSPACE';
  if (action === 'UpdateItem') return sk.startsWith('KEY#') || sk === 'AUTHFAIL';
  return false;
}

/** The IAM action each part of a transaction needs (there is no TransactWriteItems permission). */
const TRANSACTION_PART_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

function actionsOf(commandName: string, input: { TransactItems?: Record<string, unknown>[] } | undefined): string[] {
  const name = commandName.replace(/Command$/, '');
  if (name === 'TransactWriteItems' || name === 'TransactGetItems') {
    return (input?.TransactItems ?? []).map((part) => TRANSACTION_PART_ACTIONS[Object.keys(part)[0] ?? ''] ?? name);
  }
  return [name];
}

class SandboxAccessDenied extends Error {
  constructor(action: string, allowed: readonly string[]) {
    super(
      `Not authorized to perform dynamodb:${action}: the function declares only ${allowed.join(', ') || 'no table access'} ` +
        '(add it to `table` of its route or consumer definition; the CDK stack grants exactly those)',
    );
    this.name = 'AccessDeniedException';
  }
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
      const allowed = stats.allowedDynamoDbActions;
      if (allowed) {
        const input = (args as { input?: { TransactItems?: Record<string, unknown>[]; Key?: { sk?: unknown } } }).input;
        const denied = actionsOf(context.commandName ?? 'unknown', input).find(
          (action) =>
            !allowed.includes(action) && !(stats.authenticationActions?.includes(action) && isAuthenticationCall(action, input?.Key)),
        );
        if (denied) throw new SandboxAccessDenied(denied, allowed);
      }
    }
    return next(args);
  };
  client.middlewareStack.add(counter as never, { step: 'initialize', name: 'sandboxDynamoDbCallCounter' });
}
