/**
 * A stalled DynamoDB fails the call inside the function timeout, so the caller gets our 503
 * `service_busy` envelope with `Retry-After` (busy, not broken: issue 37) instead of API Gateway's
 * bare answer to a function that timed out; and the sandbox
 * fails an invocation that runs past its function timeout, as Lambda does.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../lib/platform/auth/developer-key-token.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../../lib/platform/timeouts.ts';
import { FunctionTimeoutError, invokeWithTimeout } from '../../local/lambda-runtime.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';

/** Accepts connections and never answers: a DynamoDB that has stalled. */
let blackHole: Server;
const sockets: Socket[] = [];

beforeAll(async () => {
  blackHole = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  const { port } = blackHole.address() as { port: number };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
});

describe('a stalled DynamoDB', () => {
  it('answers the 503 service_busy envelope, with Retry-After, within the function timeout', async () => {
    const { handler } = (await import('../../functions/me/get-me.ts')) as unknown as {
      handler: (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const started = Date.now();
    const res = (await handler(
      apiEvent({
        path: '/api/v1/me',
        headers: { 'x-service-workspace-host': 'acme', authorization: `Bearer ${newToken('AAAAAAAAAAAA')}` },
      }),
      lambdaContext(),
    )) as { statusCode: number; body: string; headers: Record<string, string> };
    const elapsedMs = Date.now() - started;
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: 'service_busy' });
    expect(res.headers['Retry-After']).toBe('1');
    expect(elapsedMs).toBeLessThan(DEFAULT_TIMEOUT_SECONDS * 1000 - 1000);
    expect(sockets.length).toBeGreaterThan(0);
  }, 20_000);
});

describe('the sandbox runtime', () => {
  it('fails an invocation that runs past its function timeout', async () => {
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve('too late'), 2000));
    await expect(invokeWithTimeout(slow, {}, 'slow', 0.2)).rejects.toBeInstanceOf(FunctionTimeoutError);
  });

  it("gives the handler a context whose deadline is the function's timeout", async () => {
    const remaining = await invokeWithTimeout(async (_e, context) => context.getRemainingTimeInMillis(), {}, 'quick', 7);
    expect(remaining).toBeGreaterThan(6000);
    expect(remaining).toBeLessThanOrEqual(7000);
  });
});
