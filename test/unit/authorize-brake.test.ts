/**
 * The brake on failed authentications: a source address that sends too many bad keys in one window
 * gets 429 instead of 401, counted on an item of its own, so the real key's holder is never braked.
 * (The integration sandbox serves every test from 127.0.0.1 and so lifts this limit.)
 */
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newToken } from '../../lib/platform/auth/developer-key-token.ts';
import { dynamo } from '../../lib/platform/data/client.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';

const db = mockClient(dynamo);
afterEach(() => db.reset());

const KEY_ID = 'AAAAAAAAAAAA';
const realToken = newToken(KEY_ID);
const keyItem = {
  pk: 'WS#acme',
  sk: `KEY#${KEY_ID}`,
  id: KEY_ID,
  workspace: 'acme',
  name: 'k',
  permissions: [],
  secretHash: hashToken(realToken),
  tokenHint: 'x',
  createdAt: '2026-01-01T00:00:00Z',
  rateLimitPerMinute: 600,
  rlWindows: {},
};

let handler: (event: unknown, context: unknown) => Promise<{ statusCode?: number; body?: string }>;
beforeAll(async () => {
  process.env.AUTH_FAILURES_PER_WINDOW = '3';
  ({ handler } = (await import('../../functions/me/get-me.ts')) as never);
});

function mockTable(failuresSoFar: number) {
  const workspace = { pk: 'WS#acme', sk: 'WORKSPACE', slug: 'acme', name: 'Acme', status: 'active', createdAt: 'x', updatedAt: 'x' };
  db.on(BatchGetCommand).callsFake((input) => ({ Responses: { [Object.keys(input.RequestItems)[0]!]: [workspace, keyItem] } }));
  // The key's count in its window's entry of the counter (lib/platform/data/developer-keys.ts): its first request.
  db.on(UpdateCommand, { Key: { pk: 'WS#acme', sk: `KEY#${KEY_ID}` } }).callsFake((input) => ({
    Attributes: { rlWindows: { [input.ExpressionAttributeNames['#window']]: 1 } },
  }));
  db.on(UpdateCommand, { Key: { pk: 'AUTHFAIL#127.0.0.1', sk: 'AUTHFAIL' } }).resolves({ Attributes: { rlCount: failuresSoFar + 1 } });
}

const get = (token: string) =>
  handler(
    apiEvent({ path: '/api/v1/me', headers: { 'x-service-workspace-host': 'acme', authorization: `Bearer ${token}` } }),
    lambdaContext(),
  );

describe('failed authentications per source', () => {
  it('answer 401 up to the limit', async () => {
    mockTable(2);
    const res = await get(newToken(KEY_ID));
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body!).error).toBe('invalid_key');
  });

  it('answer 429 rate_limited with Retry-After past the limit', async () => {
    mockTable(3);
    const res = (await get(newToken(KEY_ID))) as { statusCode: number; body: string; headers: Record<string, string> };
    expect(res.statusCode).toBe(429);
    expect(JSON.parse(res.body).error).toBe('rate_limited');
    expect(res.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
  });

  it("never brake the real key's holder, even from a braked source", async () => {
    mockTable(1000);
    expect((await get(realToken)).statusCode).toBe(200);
    const failureCounts = db.commandCalls(UpdateCommand).filter((c) => c.args[0].input.Key?.pk === 'AUTHFAIL#127.0.0.1');
    expect(failureCounts).toHaveLength(0);
  });
});
