/**
 * The MCP server's function as deployed: no table permission and no table name at all (every read
 * and write it causes is an API route's, under the caller's key), the API's own base URL fixed by
 * the stack, and a timeout that outlasts the one API call it waits for. The denials are evaluated as
 * IAM would, by the sandbox's evaluator (local/iam/) on the synthesized templates.
 */
import { App, type NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortalApiStack, type PortalApiStackProps } from '../../cdk/portal-api-stack.ts';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import { type RouteDefinition, routes } from '../../lib/manifest.ts';
import { agentTools } from '../../lib/mcp/tools.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../../lib/platform/timeouts.ts';
import { cloudAssembly } from '../../local/iam/cloud-assembly.ts';
import { functionPolicies } from '../../local/iam/function-policies.ts';
import { checkDynamoDbRequest } from '../../local/iam/policy-check.ts';

/** The MCP server's functions: `POST /mcp` and its read-only variant `POST /mcp/readonly`, deployed alike. */
const MCP_OPERATIONS = ['callMcpServer', 'callMcpServerReadOnly'];

/** The MCP function's properties and the statements of every policy on its role, from its nested stack's template. */
function mcpFunctionOf(props: Partial<PortalApiStackProps>, mcpRoute: RouteDefinition) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new PortalApiStack(app, 'McpStack', { workspaceDomain: 'portal.test', ...props });
  const fn = stack.functions.get(mcpRoute.operationId)!;
  const holder = Stack.of(fn);
  const resources = Template.fromStack(holder).toJSON().Resources as Record<string, { Type: string; Properties: any }>;
  const roleRef = JSON.stringify(holder.resolve((fn.role!.node.defaultChild as CfnRole).ref));
  const statements = Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as unknown[]).some((role) => JSON.stringify(role) === roleRef))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[] }[]);
  const properties = resources[holder.resolve((fn.node.defaultChild as CfnFunction).logicalId) as string]!.Properties;
  // What the parent passes into the nested stack's parameters, by name.
  const nested = Template.fromStack(stack).toJSON().Resources[stack.resolve((holder as NestedStack).nestedStackResource!.logicalId)];
  return { properties, statements, passedIn: (nested?.Properties.Parameters ?? {}) as Record<string, unknown> };
}

describe.each(MCP_OPERATIONS)('the MCP server function (%s)', (operationId) => {
  const mcpRoute = routes.find((route) => route.operationId === operationId)!;
  let deployed: ReturnType<typeof mcpFunctionOf>;
  beforeAll(() => {
    deployed = mcpFunctionOf({}, mcpRoute);
  });

  it('holds no table permission and is not told the table’s name; it knows the API’s own base URL', () => {
    const { properties, statements, passedIn } = deployed;
    const actions = statements.flatMap((s) => [s.Action].flat());
    expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    expect(actions.filter((action) => action.startsWith('sqs:'))).toEqual([]);
    // Only to read the server secret, which an OAuth access token's forwarded form is keyed with.
    expect(actions.filter((action) => action.startsWith('secretsmanager:')).sort()).toEqual([
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
    ]);
    const variables = properties.Environment.Variables;
    expect(variables.TABLE_NAME).toBeUndefined();
    // execute-api's endpoint (the parent passes it into the area's nested stack), then the API's prefix.
    const [endpoint, prefix] = variables.API_BASE_URL['Fn::Join'][1];
    expect(prefix).toBe('/api/v1');
    expect(passedIn[endpoint.Ref]).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Api[0-9A-F]{8}$/), 'ApiEndpoint'] });
  });

  it('calls the shared edge on a custom domain, which works with execute-api closed', () => {
    const { properties } = mcpFunctionOf(
      { customDomain: { domainName: 'portal.test', hostedZoneId: 'Z0123456789ABC', disableDefaultEndpoint: true } },
      mcpRoute,
    );
    expect(properties.Environment.Variables.API_BASE_URL).toBe('https://api.portal.test/api/v1');
  });

  it('waits longer than any tool’s operation may run, and answers before API Gateway’s 30 s', () => {
    const { properties } = deployed;
    const longestTool = Math.max(...agentTools(routes).map((tool) => tool.route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS));
    expect(properties.Timeout).toBeGreaterThanOrEqual(longestTool + 2);
    expect(properties.Timeout).toBeLessThan(30);
  });

  it('is denied every table request by its synthesized policy, evaluated as IAM would', async () => {
    const account = { region: 'us-east-1', accountId: '000000000000', tableName: 'cx-portal' };
    const policy = functionPolicies(await cloudAssembly(), account).get(mcpRoute.handler);
    expect(policy, 'the sandbox finds the MCP function').toBeDefined();
    const TableName = account.tableName;
    const keyItem = keys.developerKey('acme', 'AAAAAAAAAAAA');
    const requests: [string, Record<string, unknown>][] = [
      ['GetCommand', { TableName, Key: keys.workspace('acme') }],
      ['BatchGetCommand', { RequestItems: { [TableName]: { Keys: [keys.workspace('acme'), keyItem] } } }],
      ['QueryCommand', { TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'WS#acme' } }],
      ['UpdateCommand', { TableName, Key: keyItem, UpdateExpression: 'SET rlCount = rlCount + :one', ReturnValues: 'UPDATED_NEW' }],
      ['PutCommand', { TableName, Item: ideaEntity.keys.idea('acme', 'x') }],
    ];
    for (const [command, input] of requests) {
      await expect(checkDynamoDbRequest(policy, account, command, input), command).rejects.toThrow(/is not authorized to perform/);
    }
  });
});
