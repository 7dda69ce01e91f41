/**
 * The DynamoDB client, created once per Lambda instance. Its endpoint comes from the standard SDK
 * configuration (AWS_ENDPOINT_URL_DYNAMODB in the sandbox or LocalStack, the regional endpoint
 * in AWS), so handlers never know where they run.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { meterCapacity } from '../tenants/meter.ts';
import { DEFAULT_TIMEOUT_SECONDS } from '../timeouts.ts';
import { gateWrites } from '../write-gate.ts';

/**
 * A stalled DynamoDB must fail the call, not the function: the SDK's defaults have no request
 * timeout, so a request would hang until Lambda kills the function and the caller would get API
 * Gateway's bare 500 instead of our 502 envelope. One call's worst case, every attempt timing out,
 * is ATTEMPTS × (CONNECTION + REQUEST) plus the SDK's backoff between attempts (under a second
 * here), which must fit in the shortest function timeout (timeouts.ts, DEFAULT_TIMEOUT_SECONDS) with
 * room left to answer: 2 × (1 s + 3 s) + backoff ≈ 8.5 s < 10 s. DynamoDB answers in milliseconds;
 * 3 s leaves room for a 1 MB Query page and a contended transaction.
 */
const DYNAMODB_BUDGET = { connectionTimeoutMs: 1000, requestTimeoutMs: 3000, maxAttempts: 2 } as const;

const worstCaseMs = DYNAMODB_BUDGET.maxAttempts * (DYNAMODB_BUDGET.connectionTimeoutMs + DYNAMODB_BUDGET.requestTimeoutMs) + 1000;
if (worstCaseMs >= DEFAULT_TIMEOUT_SECONDS * 1000) throw new Error('The DynamoDB retry budget does not fit in the function timeout');

// Its writes wait for the request's rate-limit verdict; its reads run beside it (write-gate.ts); every
// data call asks for the capacity it consumed, which the request's usage adds up (tenants/meter.ts).
export const dynamo = meterCapacity(
  gateWrites(
    DynamoDBDocumentClient.from(
      new DynamoDBClient({
        maxAttempts: DYNAMODB_BUDGET.maxAttempts,
        requestHandler: {
          connectionTimeout: DYNAMODB_BUDGET.connectionTimeoutMs,
          requestTimeout: DYNAMODB_BUDGET.requestTimeoutMs,
          // Without it, the SDK only logs a warning when a request outlives requestTimeout.
          throwOnRequestTimeout: true,
        },
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    ),
  ),
);

export const tableName = config.tableName();
