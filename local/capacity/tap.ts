/**
 * The capacity model's recorder (`npm run bench:capacity`): an SDK middleware on the handlers' DynamoDB
 * client, as consumed-capacity.ts is, that hands every request the functions send to `record`, priced
 * item by item (pricing.ts) from the images wire.ts reads around it. It sits after serialisation, so it
 * sees exactly the request DynamoDB receives, and outside the SDK's retries (one record per call).
 *
 * Writes to one item are serialised around their before and after reads, so the images are exactly
 * the item as this write found and left it even when requests run concurrently; and at most
 * IN_FLIGHT requests are tapped at once (the wait is outside the SDK's request timeout), so a fan-out
 * of fifty writes does not overwhelm DynamoDB Local on a loaded machine. Off unless the bench
 * installs it: it triples the sandbox's calls to DynamoDB Local.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { invocationStats } from '../instrumentation.ts';
import { type Landing, landingsOf, type PricedRequest } from './pricing.ts';
import {
  bodyText,
  imagesOf,
  keyId,
  plannedWrites,
  pricedRead,
  pricedWrite,
  READ_OPERATIONS,
  unprocessedOf,
  WRITE_OPERATIONS,
  wireRequestOf,
} from './wire.ts';

export interface TappedRequest {
  operation: string;
  /** The handler file of the function that sent it (a route's, or a stream or queue consumer's). */
  handler: string | undefined;
  priced: PricedRequest;
  landings: Landing[];
}

interface InstrumentableClient {
  middlewareStack: { add: (mw: never, options: { step: 'build'; name: string }) => void };
}

/** Errors after which DynamoDB still charged the request: it evaluated the items (a failed condition). */
const CHARGED_ERRORS = new Set(['ConditionalCheckFailedException', 'TransactionCanceledException']);

const IN_FLIGHT = 8;

/** At most `limit` holders at once; the others wait their turn, first come first served. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.free = limit;
  }

  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/** One promise chain per item key: writes to one item wait for each other. */
class KeyLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(ids: readonly string[]): Promise<() => void> {
    const unique = [...new Set(ids)].sort();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waits = unique.map((id) => this.tails.get(id) ?? Promise.resolve());
    for (const id of unique) this.tails.set(id, done);
    await Promise.all(waits);
    return () => {
      for (const id of unique) if (this.tails.get(id) === done) this.tails.delete(id);
      release();
    };
  }
}

export function tapDynamoDb(
  client: InstrumentableClient,
  options: { raw: DynamoDBClient; tableName: string; record: (request: TappedRequest) => void },
): void {
  const { raw, tableName } = options;
  const locks = new KeyLocks();
  const slots = new Slots(IN_FLIGHT);
  const tap = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
    const { request, operation } = wireRequestOf(args);
    if (!READ_OPERATIONS.has(operation) && !WRITE_OPERATIONS.has(operation)) return next(args);
    const input = JSON.parse(bodyText(request.body)) as Record<string, unknown>;
    const handler = invocationStats.getStore()?.handler;
    const planned = plannedWrites(operation, input);
    const unlock = await locks.acquire(planned.map((write) => keyId(write.key)));
    const free = await slots.take();
    const release = () => {
      free();
      unlock();
    };
    try {
      const before = await imagesOf(raw, tableName, planned);
      let result: unknown;
      let failure: unknown;
      try {
        result = await next(args);
      } catch (error) {
        failure = error;
      }
      const charged = failure === undefined || CHARGED_ERRORS.has((failure as { name?: string }).name ?? '');
      if (charged) {
        const skipped = unprocessedOf(operation, (result as { output?: Record<string, unknown> } | undefined)?.output);
        const priced = WRITE_OPERATIONS.has(operation)
          ? pricedWrite(operation, planned, before, await imagesOf(raw, tableName, planned), skipped)
          : await pricedRead(raw, tableName, operation, input, skipped);
        options.record({ operation, handler, priced, landings: landingsOf(priced) });
      }
      if (failure !== undefined) throw failure;
      return result;
    } finally {
      release();
    }
  };
  client.middlewareStack.add(tap as never, { step: 'build', name: 'sandboxCapacityTap' });
}
