/**
 * OAuth's functions as deployed (lib/mcp/oauth/routes.ts): public routes, reached without a key, so
 * each may do exactly what its route declares and nothing beside it. No queue, no bucket, no other
 * table; the table's own ARN only (no index); the one server secret, read, for the keyed hashes of
 * codes and CSRF tokens. The requests each function makes are allowed and every other kind denied
 * by its synthesized policy, evaluated as IAM would by the sandbox's evaluator (local/iam/).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack } from '../../cdk/portal-api-stack.ts';
import { routes } from '../../lib/manifest.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { cloudAssembly } from '../../local/iam/cloud-assembly.ts';
import { type FunctionPolicy, functionPolicies } from '../../local/iam/function-policies.ts';
import { checkDynamoDbRequest } from '../../local/iam/policy-check.ts';

const OAUTH_ROUTES = routes.filter((route) => route.handler.startsWith('functions/oauth/'));
const DYNAMODB_COMMANDS: Record<string, string> = {
  GetItem: 'GetCommand',
  BatchGetItem: 'BatchGetCommand',
  PutItem: 'PutCommand',
  UpdateItem: 'UpdateCommand',
  DeleteItem: 'DeleteCommand',
  Query: 'QueryCommand',
  Scan: 'ScanCommand',
  BatchWriteItem: 'BatchWriteCommand',
};
const account = { region: 'us-east-1', accountId: '000000000000', tableName: 'cx-portal' };
const TableName = account.tableName;
const clientItem = { pk: 'WS#acme', sk: 'OAUTHCLIENT#0195f2a0-7c1e-7000-8000-000000000001' };

/** One request of each DynamoDB action, on an OAuth item of workspace `acme`. */
function requestOf(action: string): Record<string, unknown> {
  switch (action) {
    case 'GetItem':
    case 'DeleteItem':
      return { TableName, Key: clientItem };
    case 'BatchGetItem':
      return { RequestItems: { [TableName]: { Keys: [keys.workspace('acme'), clientItem] } } };
    case 'PutItem':
      return { TableName, Item: { ...clientItem, entity: 'OAuthClient' } };
    case 'UpdateItem':
      return { TableName, Key: keys.oauthRegistrations('127.0.0.1', 29_000_000), UpdateExpression: 'SET rlCount = rlCount + :one' };
    case 'Query':
      return { TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'WS#acme' } };
    case 'Scan':
      return { TableName };
    default:
      return { RequestItems: { [TableName]: [{ PutRequest: { Item: clientItem } }] } };
  }
}

/** The statements of every policy on the function's role, and its environment, from its nested stack's template. */
function deployedOf(stack: PortalApiStack, operationId: string) {
  const fn = stack.functions.get(operationId)!;
  const holder = Stack.of(fn);
  const resources = Template.fromStack(holder).toJSON().Resources as Record<string, { Type: string; Properties: any }>;
  const roleRef = JSON.stringify(holder.resolve((fn.role!.node.defaultChild as CfnRole).ref));
  const statements = Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as unknown[]).some((role) => JSON.stringify(role) === roleRef))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
  const properties = resources[holder.resolve((fn.node.defaultChild as CfnFunction).logicalId) as string]!.Properties;
  return { statements, variables: properties.Environment.Variables as Record<string, unknown> };
}

let stack: PortalApiStack;
let policies: Map<string, FunctionPolicy>;
beforeAll(async () => {
  stack = new PortalApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'OAuthStack', { workspaceDomain: 'portal.test' });
  policies = functionPolicies(await cloudAssembly(), account);
});

describe.each(OAUTH_ROUTES.map((route) => [route.operationId, route] as const))('the OAuth function %s', (_, route) => {
  it('may call the table (its own ARN, no index) and the server secret alone, and knows no queue', () => {
    const { statements, variables } = deployedOf(stack, route.operationId);
    const services = new Set(statements.flatMap((s) => [s.Action].flat().map((action) => action.split(':')[0])));
    const expected = [...(route.table?.length ? ['dynamodb'] : []), ...(route.needs?.includes('keyed-hash') ? ['secretsmanager'] : [])];
    // CloudWatch Logs: its own log group (stack.test.ts holds which).
    expect([...services].filter((service) => service !== 'logs').sort()).toEqual(expected.sort());
    for (const statement of statements.filter((s) => [s.Action].flat().some((action) => action.startsWith('dynamodb:')))) {
      expect(JSON.stringify(statement.Resource)).not.toMatch(/index/);
    }
    const secretActions = statements.flatMap((s) => [s.Action].flat()).filter((action) => action.startsWith('secretsmanager:'));
    expect(secretActions.every((action) => ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'].includes(action))).toBe(true);
    expect(Object.keys(variables).filter((name) => /QUEUE|BUCKET/.test(name))).toEqual([]);
  });

  it('is allowed the requests its route declares and denied every other kind, as IAM would evaluate it', async () => {
    const policy = policies.get(route.handler);
    expect(policy, 'the sandbox finds the function').toBeDefined();
    const declared = new Set<string>(route.table ?? []);
    for (const [action, command] of Object.entries(DYNAMODB_COMMANDS)) {
      const checked = checkDynamoDbRequest(policy!, account, command, requestOf(action));
      if (declared.has(action)) await checked;
      else await expect(checked, `${action} is not declared`).rejects.toThrow(/is not authorized to perform/);
    }
  });
});

it('covers every OAuth route of the manifest', () => {
  expect(OAUTH_ROUTES.map((route) => route.operationId).sort()).toEqual([
    'exchangeOAuthToken',
    'getAuthorizationServerMetadata',
    'getMcpResourceMetadata',
    'getRootResourceMetadata',
    'registerOAuthClient',
    'revokeOAuthToken',
    'showOAuthConsent',
    'submitOAuthConsent',
  ]);
});
