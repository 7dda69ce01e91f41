/**
 * What the deployed policies deny, evaluated as IAM would (the sandbox's evaluator, local/iam/) on
 * the synthesized templates: a read-only route may count a request against a key and nothing more.
 * That the policies allow every request the handlers really send is proven by the integration
 * suite, whose sandbox evaluates each of them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import { routes } from '../../lib/manifest.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { authenticatesItself } from '../../lib/platform/route.ts';
import { webhookEntity } from '../../lib/webhooks/entities.ts';
import { cloudAssembly } from '../../local/iam/cloud-assembly.ts';
import { type FunctionPolicy, functionPolicies } from '../../local/iam/function-policies.ts';
import { checkDynamoDbRequest } from '../../local/iam/policy-check.ts';

const account = { region: 'us-east-1', accountId: '000000000000', tableName: 'cx-portal' };
let policies: Map<string, FunctionPolicy>;

beforeAll(async () => {
  policies = functionPolicies(await cloudAssembly(), account);
});

const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
const readRoutes = routes.filter((r) => authenticatesItself(r) && !r.table?.some((a) => WRITES.includes(a)));
const TableName = account.tableName;
const keyItem = keys.developerKey('acme', 'AAAAAAAAAAAA');

/** Resolves to 'allowed', or to the AccessDeniedException's message. */
async function decision(handler: string, command: string, input: Record<string, unknown>): Promise<string> {
  try {
    await checkDynamoDbRequest(policies.get(handler), account, command, { TableName, ...input });
    return 'allowed';
  } catch (error) {
    if ((error as Error).name !== 'AccessDeniedException') throw error;
    return (error as Error).message;
  }
}
const denied = expect.stringContaining('is not authorized to perform');

describe('synthesized IAM policies', () => {
  it('find a policy for every route the stack deploys', () => {
    for (const route of routes) expect(policies.get(route.handler), route.operationId).toBeDefined();
    expect(readRoutes.length).toBeGreaterThan(20);
  });

  it('let every read-only route count a request against a key, as the key check does', async () => {
    for (const route of readRoutes) {
      const batch = { RequestItems: { [TableName]: { Keys: [keys.workspace('acme'), keyItem], ConsistentRead: true } } };
      expect(await decision(route.handler, 'BatchGetCommand', batch), route.operationId).toBe('allowed');
      // The count in its window's entry of the key's counter, dropping an entry long past (developer-keys.ts).
      const count = {
        Key: keyItem,
        UpdateExpression:
          'SET rlWindows.#window = if_not_exists(rlWindows.#window, :zero) + :one, lastUsedAt = :now REMOVE rlWindows.#old0',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#window': '29000001', '#old0': '28999990' },
        ReturnValues: 'UPDATED_NEW',
      };
      expect(await decision(route.handler, 'UpdateCommand', count), route.operationId).toBe('allowed');
      // A key made before the counter was a map: its first count makes the map and drops the fixed window.
      const first = {
        Key: keyItem,
        UpdateExpression: 'SET rlWindows = :windows, lastUsedAt = :now REMOVE rlWindow, rlCount',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rlWindows)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      };
      expect(await decision(route.handler, 'UpdateCommand', first), route.operationId).toBe('allowed');
      // A source's failed authentications, a fixed window of its own item.
      const failure = {
        Key: keys.authFailures('203.0.113.9'),
        UpdateExpression: 'SET rlCount = rlCount + :one',
        ConditionExpression: 'rlWindow >= :window',
        ReturnValues: 'UPDATED_NEW',
      };
      expect(await decision(route.handler, 'UpdateCommand', failure), route.operationId).toBe('allowed');
    }
  });

  it("deny every read-only route the key check's former UpdateItem, which named secretHash in its condition", async () => {
    for (const route of readRoutes) {
      const former = {
        Key: keyItem,
        UpdateExpression: 'SET rlCount = rlCount + :one, lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND secretHash = :hash AND rlWindow = :window',
        ReturnValues: 'ALL_NEW',
      };
      expect(await decision(route.handler, 'UpdateCommand', former), route.operationId).toEqual(denied);
    }
  });

  it("deny every read-only route a change of a key's secret, permissions or content, and of any other item's content", async () => {
    const changes = [
      { Key: keyItem, UpdateExpression: 'SET secretHash = :h' },
      { Key: keyItem, UpdateExpression: 'SET #p = :p', ExpressionAttributeNames: { '#p': 'permissions' } },
      { Key: keyItem, UpdateExpression: 'SET rateLimitPerMinute = :n' },
      { Key: keyItem, UpdateExpression: 'REMOVE revokedAt' },
      { Key: ideaEntity.keys.idea('acme', '0190a1b2-0000-7000-8000-000000000000'), UpdateExpression: 'SET titleEn = :t' },
      { Key: webhookEntity.keys.webhook('acme', 'w1'), UpdateExpression: 'SET secret = :s' },
      // The counter's own attributes, but asking the whole item back.
      { Key: keyItem, UpdateExpression: 'SET rlCount = :n', ReturnValues: 'ALL_OLD' },
    ];
    for (const route of readRoutes) {
      for (const change of changes)
        expect(await decision(route.handler, 'UpdateCommand', change), `${route.operationId} ${change.UpdateExpression}`).toEqual(denied);
      expect(await decision(route.handler, 'PutCommand', { Item: { ...keyItem, secretHash: 'x' } }), route.operationId).toEqual(denied);
      expect(await decision(route.handler, 'DeleteCommand', { Key: keyItem }), route.operationId).toEqual(denied);
      expect(await decision(route.handler, 'ScanCommand', {}), route.operationId).toEqual(denied);
    }
  });

  it('deny a write route the actions it does not declare, and every function a table other than its own', async () => {
    const createIdea = routes.find((r) => r.operationId === 'createIdea')!;
    expect(createIdea.table).not.toContain('DeleteItem');
    expect(await decision(createIdea.handler, 'DeleteCommand', { Key: ideaEntity.keys.idea('acme', 'x') })).toEqual(denied);
    for (const route of routes) {
      const other = { TableName: 'another-table', Key: keyItem };
      const [command, input] =
        route.auth === 'none' ? ['GetCommand', other] : ['BatchGetCommand', { RequestItems: { 'another-table': { Keys: [keyItem] } } }];
      expect(await decision(route.handler, command as string, input as Record<string, unknown>), route.operationId).toEqual(denied);
    }
  });

  it('deny a Query of an index the route does not name', async () => {
    const query = routes.find((r) => r.auth !== 'none' && r.table?.includes('Query'))!;
    const input = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'WS#acme' } };
    expect(await decision(query.handler, 'QueryCommand', input)).toBe('allowed');
    expect(await decision(query.handler, 'QueryCommand', { ...input, IndexName: 'gsi9' })).toEqual(denied);
  });
});
