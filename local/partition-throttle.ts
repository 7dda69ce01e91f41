/**
 * `SANDBOX_PARTITION_SCALE=N`: the sandbox throttles where DynamoDB would, at 1/N of its rates. DynamoDB
 * Local has no partitions, so without this a hot item or a key range written in order never shows
 * before production. With it, every single item and every range written in order (local/capacity/key-ranges.ts)
 * gets 1/N of a partition's 1,000 write and 3,000 read units a second
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html), tables
 * and gsi1 apart, reads and writes apart ("a partition may throttle reads while writes continue",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/throttling-key-range-limit-exceeded-mitigation.html).
 * At N = 100, 50 requests a second load an item as 5,000 would in AWS.
 *
 * Each is a token bucket refilled at its 1/N rate, which holds at least one second of a whole
 * partition's units: N seconds of its own rate. Scaling the rate down scales the requests' randomness
 * up: at 1/N a bucket gets in N seconds the number of requests a partition gets in one, and a count of
 * random arrivals (Poisson) has the same spread over N seconds at 1/N of the rate as over one second
 * at the full rate, but over one second it is √N times wider for its mean. A bucket of one second of
 * its own rate would turn away bursts AWS absorbs (at N = 100, 50 submits a second to a survey's 64
 * response ranges, 62 % of their rate, were throttled over a hundred times in a simulated run and
 * submits failed past their retries, test/unit/partition-bursts.test.ts; AWS at 5,000 a second,
 * √100 = 10 times steadier, throttles none); a bucket of N seconds sees its requests exactly as a
 * partition sees AWS's. Sustained load over the rate still
 * drains it, only N times slower: k times the rate is throttled after N / (k − 1) seconds (2.5 s at
 * N = 100 for a range written in order at 41 times its rate, 100 s for one at twice it), where a
 * partition without banked credit throttles after 1 / (k − 1). On top of that floor a bucket keeps what
 * goes unused, up to five minutes of its rate, as a partition does ("DynamoDB currently retains up to
 * five minutes (300 seconds) of unused read and write capacity", burst capacity,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html), not
 * N times five minutes: banking that would take hours. Adaptive capacity, on the same page, isolates a
 * hot item on a partition of its own: here every item is its own bucket already, and only a range
 * written in order stays one (key-ranges.ts). The data kit's retries wait in real seconds, sized to
 * outlast a partition's spent second in AWS (lib/platform/data/conditions.ts, batch.ts); a bucket in
 * debt refills N times slower, so the sandbox is stricter than AWS only with a key over its rate, which
 * is what it is there to show. A request is admitted while every bucket it lands on holds the units it is
 * estimated to take (the item as it stands and as asked for) beside what the requests admitted before it
 * and still running are estimated to take; the units it really took, priced as
 * AWS prices them (local/capacity/pricing.ts), are charged once it ran, so a bucket may go into debt
 * and turn the next requests away. Over the limit the request is answered as DynamoDB answers, before
 * anything is written (a throttled write changes nothing):
 *   - a single-item call or a Query: HTTP 400 ProvisionedThroughputExceededException with its
 *     ThrottlingReasons, e.g. TableWriteKeyRangeThroughputExceeded
 *     (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/throttling-diagnosing-workflow.html);
 *   - TransactWriteItems / TransactGetItems: TransactionCanceledException whose CancellationReasons say
 *     ThrottlingError for the items over the limit and None for the others
 *     (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html);
 *   - BatchWriteItem / BatchGetItem: the items over the limit come back in UnprocessedItems /
 *     UnprocessedKeys, and when none could be processed the call is a ProvisionedThroughputExceededException
 *     (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html).
 * The middleware sits under the SDK's retries and over its transport, so the SDK deserialises and retries
 * these answers exactly as AWS's (and the data kit's bounded retries then take over, lib/platform/data/).
 * Only the handlers' client is throttled; cxctl and the tests' own clients are not.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { WireItem } from './capacity/item-size.ts';
import { OrderedRanges, rangeId } from './capacity/key-ranges.ts';
import { type KeyRef, type Landing, landingsOf, type PricedRequest } from './capacity/pricing.ts';
import {
  bodyText,
  imagesOf,
  keyId,
  type PlannedWrite,
  plannedWrites,
  pricedRead,
  pricedWrite,
  READ_OPERATIONS,
  unprocessedOf,
  wireRequestOf,
} from './capacity/wire.ts';
import { type InvocationStats, invocationStats } from './instrumentation.ts';
import {
  answer,
  collect,
  estimatedAfter,
  readEstimates,
  safeJson,
  THROTTLED_MESSAGE,
  type WireResponse,
} from './partition-throttle-wire.ts';

/** Buckets kept at most; idle ones are dropped when there are more (recreated as new, without their burst credit). */
const MAX_BUCKETS = 50_000;

/** The scale asked for by SANDBOX_PARTITION_SCALE, or undefined (off). */
export function partitionScaleFromEnvironment(): number | undefined {
  const raw = process.env.SANDBOX_PARTITION_SCALE;
  if (raw === undefined || raw === '') return undefined;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 1) throw new Error(`SANDBOX_PARTITION_SCALE must be a number of at least 1, not "${raw}"`);
  return scale;
}

/**
 * SANDBOX_PARTITION_FLOOR_SECONDS: the seconds of its own rate a new bucket holds, instead of a whole
 * partition's second (the scale). 1 throttles an item after a request or two, as a partition without
 * banked credit meets a burst of the full rate: for provoking DynamoDB's answers (test/integration/
 * service-busy.test.ts), not for judging a load (test/integration/partition-load.test.ts keeps the default).
 */
export function partitionFloorFromEnvironment(): number | undefined {
  const raw = process.env.SANDBOX_PARTITION_FLOOR_SECONDS;
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 1)
    throw new Error(`SANDBOX_PARTITION_FLOOR_SECONDS must be a number of at least 1, not "${raw}"`);
  return seconds;
}

/** Unused capacity a partition keeps for bursts, in seconds of its rate. */
const BURST_SECONDS = 300;

/**
 * One item's or one range's units of one kind: refilled at `rate` a second, holding at least
 * `floorSeconds` of it (a new bucket starts there) and up to BURST_SECONDS of it when more goes unused.
 */
export class TokenBucket {
  private balance: number;
  private at: number;
  private readonly capacity: number;

  constructor(
    readonly rate: number,
    now: number,
    readonly floorSeconds: number,
  ) {
    this.capacity = Math.max(floorSeconds, BURST_SECONDS) * rate;
    this.balance = floorSeconds * rate;
    this.at = now;
  }

  available(now: number): number {
    this.balance = Math.min(this.capacity, this.balance + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    return this.balance;
  }

  /** Whether `units` more fit now, after `reserved`: a request larger than a second of the rate fits once that second is there. */
  admits(units: number, now: number, reserved = 0): boolean {
    return this.available(now) - reserved >= Math.min(units, this.rate);
  }

  take(units: number, now: number): void {
    this.available(now);
    this.balance -= units;
  }

  /** Back to where a new bucket starts: forgetting it loses nothing but banked burst credit. */
  idle(now: number): boolean {
    return this.available(now) >= this.floorSeconds * this.rate;
  }
}

const throttlesByInvocation = new WeakMap<InvocationStats, number>();

/** How many of an invocation's DynamoDB requests were throttled (each retry that was throttled again counts). */
export function throttlesIn(stats: InvocationStats): number {
  return throttlesByInvocation.get(stats) ?? 0;
}

interface Target {
  id: string;
  kind: Landing['kind'];
  index: KeyRef['index'];
}

interface InstrumentableClient {
  middlewareStack: { add: (mw: never, options: { step: 'deserialize'; name: string; priority: 'low' }) => void };
}

export interface PartitionThrottle {
  /** Requests answered with a throttle so far. */
  throttled: number;
  /** What was throttled since the last call, by bucket (`write table WS#… SURVEYSTATE#…`), and how often; then forgotten. */
  takeThrottled(): Map<string, number>;
}

export function installPartitionThrottle(
  client: InstrumentableClient,
  options: {
    scale: number;
    raw: DynamoDBClient;
    tableName: string;
    region: string;
    accountId: string;
    now?: () => number;
    /** Seconds of its rate a bucket holds at least: by default the scale, a whole partition's second (the wire tests take 1, to throttle after a few requests). */
    floorSeconds?: number;
  },
): PartitionThrottle {
  const { raw, tableName } = options;
  const floorSeconds = options.floorSeconds ?? options.scale;
  const now = options.now ?? Date.now;
  const rates = { write: 1_000 / options.scale, read: 3_000 / options.scale };
  const tableArn = `arn:aws:dynamodb:${options.region}:${options.accountId}:table/${tableName}`;
  const buckets = new Map<string, TokenBucket>();
  const ranges = new OrderedRanges();
  /**
   * Units of requests admitted and not yet charged, by bucket. A partition serves the requests on one
   * item one after another, so a burst of them meets what the first ones took; admitting each against
   * the balance alone would let a concurrent burst in whole before any of it is charged.
   */
  const inFlight = new Map<string, number>();
  let recent = new Map<string, number>();
  const state: PartitionThrottle = {
    throttled: 0,
    takeThrottled() {
      const taken = recent;
      recent = new Map();
      return taken;
    },
  };

  const bucketOf = (target: Target) => {
    const id = `${target.kind}\u0000${target.id}`;
    let bucket = buckets.get(id);
    if (!bucket) {
      if (buckets.size >= MAX_BUCKETS) for (const [other, old] of buckets) if (old.idle(now())) buckets.delete(other);
      bucket = new TokenBucket(rates[target.kind], now(), floorSeconds);
      buckets.set(id, bucket);
    }
    return bucket;
  };

  /**
   * The buckets a landing draws on: its item, and the range a Query read, or the range written in
   * order that a new key lands at the end of. A write to a key that exists (an update, a
   * ConditionCheck) draws on its item alone: writes spread over existing keys are what DynamoDB splits
   * a partition for ("split for heat"); what it cannot split is new keys arriving at one end of a range
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html).
   * So a survey's 16 collecting-state copies, made in order at publish and then checked by every
   * submit, are 16 items, not one range.
   */
  const targetsOf = (landing: Pick<Landing, 'key' | 'kind' | 'range' | 'created'>): Target[] => {
    const item = { id: keyId(landing.key), kind: landing.kind, index: landing.key.index };
    const range = landing.range ?? (landing.created ? ranges.orderedRangeOf(landing.key) : undefined);
    return range ? [item, { id: rangeId(range), kind: landing.kind, index: landing.key.index }] : [item];
  };

  /** The first target of `landings` that cannot take them (after what this request already reserved), else undefined. */
  const overLimit = (landings: readonly Landing[], reserved: Map<Target['id'], number>): Target | undefined => {
    const wanted = new Map<string, { target: Target; units: number }>();
    for (const landing of landings) {
      for (const target of targetsOf(landing)) {
        const entry = wanted.get(`${target.kind}\u0000${target.id}`) ?? { target, units: 0 };
        entry.units += landing.units;
        wanted.set(`${target.kind}\u0000${target.id}`, entry);
      }
    }
    for (const [id, { target, units }] of wanted) {
      if (!bucketOf(target).admits(units, now(), (reserved.get(id) ?? 0) + (inFlight.get(id) ?? 0))) return target;
    }
    for (const [id, { units }] of wanted) reserved.set(id, (reserved.get(id) ?? 0) + units);
    return undefined;
  };

  const charge = (landings: readonly Landing[]) => {
    for (const landing of landings) {
      for (const target of targetsOf(landing)) bucketOf(target).take(landing.units, now());
      if (landing.created) ranges.created(landing.key);
    }
  };

  const reasonOf = (target: Target) => ({
    reason: `${target.index === 'table' ? 'Table' : 'Index'}${target.kind === 'read' ? 'Read' : 'Write'}KeyRangeThroughputExceeded`,
    resource: target.index === 'table' ? tableArn : `${tableArn}/index/${target.index}`,
  });

  const throttle = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
    const { request, operation } = wireRequestOf(args);
    const planned = plannedWrites(operation, request.body === undefined ? {} : safeJson(bodyText(request.body)));
    if (!READ_OPERATIONS.has(operation) && planned.length === 0) return next(args);
    const input = safeJson(bodyText(request.body));
    const stats = invocationStats.getStore();
    const counted = (target: Target) => {
      state.throttled++;
      if (stats) throttlesByInvocation.set(stats, throttlesIn(stats) + 1);
      const name = `${target.kind} ${target.index} ${target.id.replaceAll('\u0000', ' ')}`;
      recent.set(name, (recent.get(name) ?? 0) + 1);
    };
    const refuse = (target: Target, response: { response: WireResponse }) => {
      counted(target);
      return response;
    };

    // Estimate what each part takes, and turn away what the buckets cannot hold.
    const before = await imagesOf(raw, tableName, planned);
    const reserved = new Map<string, number>();
    const parts: { key: WireItem | undefined; landings: Landing[] }[] =
      planned.length > 0
        ? planned.map((write) => ({
            key: write.key,
            landings: landingsOf(pricedWrite(operation, [write], before, estimatedAfter([write], before))),
          }))
        : readEstimates(operation, input);
    const refused = parts.map((part) => overLimit(part.landings, reserved));
    const firstRefused = refused.find((target) => target !== undefined);
    if (firstRefused) {
      if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
        const reasons = refused.map((target) => (target ? { Code: 'ThrottlingError', Message: THROTTLED_MESSAGE } : { Code: 'None' }));
        return refuse(
          firstRefused,
          answer('TransactionCanceledException', {
            message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
            CancellationReasons: reasons,
          }),
        );
      }
      if ((operation !== 'BatchWriteItem' && operation !== 'BatchGetItem') || refused.every(Boolean)) {
        return refuse(firstRefused, answer('ProvisionedThroughputExceededException', { ThrottlingReasons: [reasonOf(firstRefused)] }));
      }
      // A batch: forward only what the buckets hold, answer the rest as unprocessed.
      counted(firstRefused);
      return whileHolding(reserved, () => forwardBatch(operation, input, parts, refused, args, next));
    }
    return whileHolding(reserved, () => forwardAndCharge(operation, input, planned, before, args, next));
  };

  /** Runs an admitted request with its estimated units held against its buckets until it is charged. */
  async function whileHolding<T>(units: ReadonlyMap<string, number>, run: () => Promise<T>): Promise<T> {
    for (const [id, held] of units) inFlight.set(id, (inFlight.get(id) ?? 0) + held);
    try {
      return await run();
    } finally {
      for (const [id, held] of units) {
        const left = (inFlight.get(id) ?? 0) - held;
        if (left > 1e-9) inFlight.set(id, left);
        else inFlight.delete(id);
      }
    }
  }

  async function forwardAndCharge(
    operation: string,
    input: Record<string, unknown>,
    planned: readonly PlannedWrite[],
    before: ReadonlyMap<string, WireItem>,
    args: unknown,
    next: (args: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    const result = (await next(args)) as { response: WireResponse };
    const body = await collect(result.response.body);
    result.response.body = body;
    const answered = safeJson(body.toString('utf8'));
    const failed = result.response.statusCode >= 300;
    const type = String(answered.__type ?? '');
    // DynamoDB charges a request that evaluated its items, even when a condition failed.
    if (failed && !type.endsWith('ConditionalCheckFailedException') && !type.endsWith('TransactionCanceledException')) return result;
    const priced: PricedRequest =
      planned.length > 0
        ? pricedWrite(
            operation,
            planned,
            before,
            failed ? before : await afterImages(planned, before, unprocessedOf(operation, answered)),
            unprocessedOf(operation, answered),
          )
        : await pricedRead(raw, tableName, operation, input, unprocessedOf(operation, answered));
    charge(landingsOf(priced));
    return result;
  }

  async function forwardBatch(
    operation: string,
    input: Record<string, unknown>,
    parts: readonly { key: WireItem | undefined }[],
    refused: readonly (Target | undefined)[],
    args: unknown,
    next: (args: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    const table = Object.keys(input.RequestItems as Record<string, unknown>)[0] as string;
    const kept = (i: number) => refused[i] === undefined;
    const { request } = wireRequestOf(args);
    let forwarded: Record<string, unknown>;
    if (operation === 'BatchWriteItem') {
      const requests = (input.RequestItems as Record<string, unknown[]>)[table] as unknown[];
      forwarded = { ...input, RequestItems: { [table]: requests.filter((_, i) => kept(i)) } };
    } else {
      const asked = (input.RequestItems as Record<string, { Keys: unknown[] }>)[table] as { Keys: unknown[] };
      forwarded = { ...input, RequestItems: { [table]: { ...asked, Keys: asked.Keys.filter((_, i) => kept(i)) } } };
    }
    request.body = JSON.stringify(forwarded);
    request.headers['content-length'] = String(Buffer.byteLength(request.body as string));
    const planned = plannedWrites(operation, forwarded);
    const before = await imagesOf(raw, tableName, planned);
    const result = (await forwardAndCharge(operation, forwarded, planned, before, args, next)) as { response: WireResponse };
    if (result.response.statusCode >= 300) return result;
    const answered = safeJson(Buffer.from(result.response.body).toString('utf8'));
    if (operation === 'BatchWriteItem') {
      const requests = (input.RequestItems as Record<string, unknown[]>)[table] as unknown[];
      const left = ((answered.UnprocessedItems as Record<string, unknown[]> | undefined)?.[table] ?? []) as unknown[];
      answered.UnprocessedItems = { [table]: [...left, ...requests.filter((_, i) => !kept(i))] };
    } else {
      const asked = (input.RequestItems as Record<string, { Keys: unknown[] }>)[table] as { Keys: unknown[] };
      const left = (answered.UnprocessedKeys as Record<string, { Keys: unknown[] }> | undefined)?.[table]?.Keys ?? [];
      const { Keys: _, ...rest } = asked;
      answered.UnprocessedKeys = { [table]: { ...rest, Keys: [...left, ...parts.filter((_, i) => !kept(i)).map((part) => part.key)] } };
    }
    result.response.body = Buffer.from(JSON.stringify(answered));
    result.response.headers['content-length'] = String(result.response.body.length);
    delete result.response.headers['x-amz-crc32'];
    return result;
  }

  /** The items as a write leaves them, without reading back what the request itself says. */
  async function afterImages(
    planned: readonly PlannedWrite[],
    before: ReadonlyMap<string, WireItem>,
    skipped: ReadonlySet<string>,
  ): Promise<Map<string, WireItem>> {
    const updated = planned.filter((write) => write.action === 'Update' && !skipped.has(keyId(write.key)));
    const read = await imagesOf(raw, tableName, updated);
    const after = new Map<string, WireItem>();
    for (const write of planned) {
      const id = keyId(write.key);
      const found = skipped.has(id)
        ? before.get(id)
        : write.action === 'Put'
          ? write.requested
          : write.action === 'Delete'
            ? undefined
            : write.action === 'Update'
              ? read.get(id)
              : before.get(id);
      if (found) after.set(id, found);
    }
    return after;
  }

  client.middlewareStack.add(throttle as never, { step: 'deserialize', name: 'sandboxPartitionThrottle', priority: 'low' });
  return state;
}
