/**
 * Evaluates a function's synthesized policy for each DynamoDB request it sends, as IAM would in
 * AWS, with @cloud-copilot/iam-simulate (a maintained IAM policy simulator: every condition
 * operator with its ForAllValues/ForAnyValue and IfExists semantics, validation of actions,
 * resource types and condition keys). A development dependency of the sandbox and the tests only:
 * no function imports it, so it is never bundled into Lambda.
 */
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { TABLE } from '../../lib/platform/data/table.ts';
import { type DynamoDbAuthorization, dynamoDbAuthorizations, type KeySchema } from './dynamodb-request-context.ts';
import type { FunctionPolicy, SandboxAccount } from './function-policies.ts';

const SCHEMA: KeySchema = { partitionKey: TABLE.partitionKey, indexPartitionKeys: { [TABLE.gsi1.name]: TABLE.gsi1.partitionKey } };

/** What DynamoDB answers a request its caller's policy does not allow (HTTP 400, AccessDeniedException). */
class AccessDeniedException extends Error {
  override name = 'AccessDeniedException';
  readonly $fault = 'client';
}

function resourceArn(account: SandboxAccount, authorization: DynamoDbAuthorization): string {
  const table = `arn:aws:dynamodb:${account.region}:${account.accountId}:table/${authorization.table}`;
  return authorization.index ? `${table}/index/${authorization.index}` : table;
}

/** The decision for one authorization: Allowed, ImplicitlyDenied or ExplicitlyDenied. */
async function decide(policy: FunctionPolicy, account: SandboxAccount, authorization: DynamoDbAuthorization): Promise<string> {
  const result = await runSimulation(
    {
      identityPolicies: [{ name: 'function', policy: { Version: '2012-10-17', Statement: policy.statements } }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: authorization.action,
        principal: policy.roleArn,
        resource: { resource: resourceArn(account, authorization), accountId: account.accountId },
        contextVariables: authorization.context,
      },
    },
    {},
  );
  // A simulation that cannot run (an unknown condition key, a malformed statement) is a defect of
  // the emulation or the policy, never a decision to fall back on.
  if (result.resultType === 'error') throw new Error(`IAM simulation failed: ${JSON.stringify(result.errors)}`);
  return result.overallResult;
}

/** Throw AccessDeniedException, as DynamoDB would, unless `policy` allows every authorization the request needs. */
export async function checkDynamoDbRequest(
  policy: FunctionPolicy | undefined,
  account: SandboxAccount,
  commandName: string,
  input: unknown,
): Promise<void> {
  for (const authorization of dynamoDbAuthorizations(commandName, input, SCHEMA)) {
    const resource = resourceArn(account, authorization);
    const decision = policy ? await decide(policy, account, authorization) : 'ImplicitlyDenied';
    if (decision !== 'Allowed') {
      throw new AccessDeniedException(
        `User: ${policy?.roleArn ?? 'a function outside the stack'} is not authorized to perform: ${authorization.action} on resource: ${resource} ` +
          `because no identity-based policy allows the ${authorization.action} action ` +
          `(sandbox: ${decision} by the synthesized policy of ${policy?.functionPath ?? 'no function'}; request context ${JSON.stringify(authorization.context)})`,
      );
    }
  }
}
