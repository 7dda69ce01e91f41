/**
 * Starts one real sandbox for the integration tests: DynamoDB Local (in memory), the SQS
 * emulator and the HTTP API on free ports. Tests reach it over HTTP and through `inject`.
 */
import type { TestProject } from 'vitest/node';
import { type Sandbox, startSandbox } from '../../local/sandbox.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    sandbox: {
      apiUrl: string;
      dynamodbEndpoint: string;
      sqsEndpoint: string;
      tableName: string;
      queues: { webhookDeliveries: string; webhookDeadLetters: string; webhookFanOutFailures: string; webhookRecoveries: string };
    };
  }
}

let sandbox: Sandbox | undefined;

export async function setup(project: TestProject) {
  process.env.RATE_LIMIT_WINDOW_SECONDS ??= '60';
  // Every test calls from 127.0.0.1, and many send bad keys on purpose: the brake on failed
  // authentications per source is tested on its own (test/unit/authorize-brake.test.ts).
  process.env.AUTH_FAILURES_PER_WINDOW ??= '1000000';
  // OAuth registrations per source: more than the tests make from 127.0.0.1 in a minute; the brake
  // is tested from another loopback address (test/integration/mcp-oauth.test.ts).
  process.env.OAUTH_REGISTRATIONS_PER_WINDOW ??= '20';
  // Webhook retries after about a second each, so retry and dead-letter tests run in seconds.
  process.env.WEBHOOK_RETRY_DELAYS ??= '1,1,1';
  // Knowledge-bank link checks give up on a silent server after 2 s instead of 10 s.
  process.env.KB_LINK_CHECK_TIMEOUT_MS ??= '2000';
  sandbox = await startSandbox({ port: 0, tableName: 'cx-portal-test' });
  project.provide('sandbox', {
    apiUrl: sandbox.apiUrl,
    dynamodbEndpoint: sandbox.dynamodbEndpoint,
    sqsEndpoint: sandbox.sqsEndpoint,
    tableName: sandbox.tableName,
    queues: sandbox.queues,
  });
}

export async function teardown() {
  await sandbox?.stop();
}
