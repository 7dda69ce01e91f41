/**
 * How the throttling sandbox (partition-throttle.ts) answers on the wire, as DynamoDB does, and what it
 * estimates a request takes before it runs.
 */
import { randomUUID } from 'node:crypto';
import { TABLE } from '../lib/platform/data/table.ts';
import type { WireItem } from './capacity/item-size.ts';
import type { Landing } from './capacity/pricing.ts';
import { keyId, type PlannedWrite, plannedReads, queryRange } from './capacity/wire.ts';

export const THROTTLED_MESSAGE =
  'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try ' +
  'again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html.';
const ERROR_TYPE = 'com.amazonaws.dynamodb.v20120810#';

export interface WireResponse {
  statusCode: number;
  reason?: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

export function answer(type: string, body: Record<string, unknown>): { response: WireResponse } {
  return {
    response: {
      statusCode: 400,
      reason: 'Bad Request',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID().replaceAll('-', '').toUpperCase() },
      body: Buffer.from(JSON.stringify({ __type: `${ERROR_TYPE}${type}`, message: body.message ?? THROTTLED_MESSAGE, ...body })),
    },
  };
}

export async function collect(body: unknown): Promise<Buffer> {
  if (body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A write's items as it asks for them (an update as the item stands: its new size is known only after). */
export function estimatedAfter(planned: readonly PlannedWrite[], before: ReadonlyMap<string, WireItem>): Map<string, WireItem> {
  const after = new Map<string, WireItem>();
  for (const write of planned) {
    const found = write.action === 'Put' ? write.requested : write.action === 'Delete' ? undefined : before.get(keyId(write.key));
    if (found) after.set(keyId(write.key), found);
  }
  return after;
}

/** A read's parts before it runs: each key at the minimum, a Query at the start of its range. */
export function readEstimates(operation: string, input: Record<string, unknown>): { key: WireItem | undefined; landings: Landing[] }[] {
  if (operation === 'Query' || operation === 'Scan') {
    const range = queryRange(input);
    return [
      {
        key: undefined,
        landings: [{ key: { index: range.index, pk: range.pk, sk: range.prefix }, kind: 'read', units: 0.5, created: false, range }],
      },
    ];
  }
  const { keys } = plannedReads(operation, input);
  return keys.map((key) => ({
    key,
    landings: [
      {
        key: { index: 'table', pk: String(key[TABLE.partitionKey]?.S), sk: String(key[TABLE.sortKey]?.S) },
        kind: 'read',
        units: 0.5,
        created: false,
      },
    ],
  }));
}

export function safeJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}
