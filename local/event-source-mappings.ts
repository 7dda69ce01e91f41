/**
 * Lambda event source mappings, emulated for the sandbox: the same handler modules that Lambda
 * runs are fed from DynamoDB Local's stream and from the SQS emulator with the batches, retries
 * and partial-failure semantics of the real mappings.
 *
 * Stream (DynamoDB Streams API: DescribeStream / GetShardIterator / GetRecords):
 *   - one poller per shard, children only after their parent is drained (per-key order kept);
 *   - filter criteria applied before batching (filtered records never reach the function);
 *   - up to `batchSize` records per invocation, after an optional batching window;
 *   - the function throws: bisect the batch (if enabled) and retry each half, else retry the
 *     batch, up to `maximumRetryAttempts` times or until the oldest record is older than
 *     `maximumRecordAgeSeconds`; then the batch's description goes to the on-failure
 *     destination and the shard moves on;
 *   - `batchItemFailures` (with `reportBatchItemFailures`): records before the lowest reported
 *     sequence number are done; the batch is retried from it (counting as a retry); an
 *     unknown or empty identifier fails the whole batch;
 *   - checkpoints after every finished batch, kept in a file when the sandbox has a data dir.
 *
 * Queue (SQS: ReceiveMessage / DeleteMessageBatch):
 *   - `maxConcurrency` pollers, each receiving up to `batchSize` messages per invocation;
 *   - success deletes the batch; with `reportBatchItemFailures` only the messages not reported
 *     as failed; a thrown error deletes nothing. Failed messages come back after their
 *     visibility timeout and the queue's redrive policy moves them to its dead-letter queue.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FilterPattern, QueueConsumerDefinition, StreamConsumerDefinition } from '../lib/platform/event-sources.ts';
import { costLogFile, logCost } from './consumed-capacity.ts';
import { type InvocationStats, invocationStats } from './instrumentation.ts';
import { invokeWithTimeout, loadHandler } from './lambda-runtime.ts';

export interface RunningEventSource {
  stop(): Promise<void>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Run `handler` as Lambda would, failing the invocation when it runs past the function timeout,
 * and log what it cost (as the API server does per request). The capacity bench (bench/capacity-stream.ts)
 * invokes a stream consumer with it too, in batches of the size AWS would deliver.
 */
export async function invoke<E, R>(
  definition: { handler: string; timeoutSeconds: number },
  functionName: string,
  event: E & { Records: unknown[] },
  log: (line: string) => void,
): Promise<R> {
  const { timeoutSeconds } = definition;
  const handler = await loadHandler<E, R>(definition.handler);
  const stats: InvocationStats = { dynamodbCalls: 0, dynamodbCommands: [], handler: definition.handler };
  // With SANDBOX_COST_LOG, what an invocation consumed is logged as a request's is, under the
  // function's name: a queue or stream consumer's units per record (bench/webhook-recovery.ts).
  const costLog = costLogFile();
  if (costLog) stats.capacity = { readUnits: 0, writeUnits: 0 };
  const started = performance.now();
  let status = 200;
  try {
    return await invocationStats.run(stats, () => invokeWithTimeout(handler, event, functionName, timeoutSeconds));
  } catch (error) {
    status = 500;
    throw error;
  } finally {
    if (costLog && stats.capacity) {
      logCost(costLog, {
        operationId: functionName,
        status,
        ms: performance.now() - started,
        calls: stats.dynamodbCalls,
        ...stats.capacity,
      });
    }
    log(
      `${functionName}: ${event.Records.length} record(s) (${Math.round(performance.now() - started)} ms, ${stats.dynamodbCalls} DynamoDB calls)`,
    );
  }
}

// ——— filter criteria ————————————————————————————————————————————————————————————————

/** EventBridge-style matching as event source mappings do it, for exact values (the only operator the pipeline uses). */
export function matchesFilter(pattern: FilterPattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = (value as Record<string, unknown> | null | undefined)?.[key];
    if (Array.isArray(expected)) {
      for (const option of expected) {
        if (typeof option === 'object' && option !== null) throw new Error(`Unsupported filter operator ${JSON.stringify(option)}`);
      }
      const candidates = Array.isArray(actual) ? actual : [actual];
      return candidates.some((candidate) => expected.includes(candidate as string | number | boolean));
    }
    return typeof actual === 'object' && actual !== null && matchesFilter(expected, actual);
  });
}

const matchesAny = (filters: FilterPattern[], record: unknown) => filters.length === 0 || filters.some((f) => matchesFilter(f, record));

// ——— DynamoDB stream ————————————————————————————————————————————————————————————————

export interface StreamEventSourceOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  functionName: string;
  definition: StreamConsumerDefinition;
  /** Where a batch that used up its retries is described (Lambda's on-failure destination). */
  onFailure: (record: Record<string, unknown>) => Promise<void>;
  /** Keep checkpoints across restarts in this file. */
  checkpointFile?: string;
  log?: (line: string) => void;
  pollIntervalMs?: number;
}

type StreamAttribute = NonNullable<NonNullable<StreamRecord['dynamodb']>['NewImage']>[string];

/**
 * An image as DynamoDB Streams on AWS describes it. DynamoDB Local's stream writes an empty map as
 * `{}` (its GetItem answers `{"M":{}}`), which no reader can unmarshall; AWS sends every attribute
 * with its type, an empty map as `{"M":{}}` (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_AttributeValue.html).
 */
function awsImage(image: Record<string, StreamAttribute> | undefined): Record<string, StreamAttribute> | undefined {
  if (!image) return image;
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, awsAttribute(value)]));
}

function awsAttribute(value: StreamAttribute): StreamAttribute {
  if (Object.values(value).every((member) => member === undefined)) return { M: {} };
  if (value.M) return { M: awsImage(value.M)! };
  if (value.L) return { L: value.L.map(awsAttribute) };
  return value;
}

/** A stream record as Lambda hands it to a function. */
export function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const dynamodb = record.dynamodb!;
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    ...(record.userIdentity ? { userIdentity: record.userIdentity } : {}),
    dynamodb: {
      ApproximateCreationDateTime: Math.floor((dynamodb.ApproximateCreationDateTime?.getTime() ?? Date.now()) / 1000),
      Keys: dynamodb.Keys as never,
      NewImage: awsImage(dynamodb.NewImage) as never,
      OldImage: awsImage(dynamodb.OldImage) as never,
      SequenceNumber: dynamodb.SequenceNumber,
      SizeBytes: dynamodb.SizeBytes,
      StreamViewType: dynamodb.StreamViewType as never,
    },
  };
}

class Checkpoints {
  private readonly positions: Record<string, string>;
  constructor(private readonly file?: string) {
    this.positions = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  }
  get(shardId: string): string | undefined {
    return this.positions[shardId];
  }
  set(shardId: string, sequenceNumber: string): void {
    this.positions[shardId] = sequenceNumber;
    if (this.file) writeFileSync(this.file, JSON.stringify(this.positions, null, 2));
  }
}

/**
 * AWS recommends at most two Lambda functions reading one DynamoDB stream shard at a time: more are
 * throttled by the shard's read limits
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.Lambda.BestPracticesWithDynamoDBStreams.html).
 * The sandbox refuses a third mapping on one stream, so a new consumer joins an existing reader
 * as a reader of its records (lib/platform/partial-batch.ts; the survey summary is one beside the
 * webhook events) instead of passing here and failing in AWS.
 */
const MAX_READERS_PER_STREAM = 2;
const readersPerStream = new Map<string, number>();

export function startStreamEventSource(options: StreamEventSourceOptions): RunningEventSource {
  const { streams, streamArn, definition, log = () => undefined } = options;
  const readers = readersPerStream.get(streamArn) ?? 0;
  if (readers >= MAX_READERS_PER_STREAM) {
    throw new Error(
      `${options.functionName}: the stream already has ${readers} Lambda readers, the most AWS recommends per shard ` +
        '(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.Lambda.BestPracticesWithDynamoDBStreams.html): ' +
        "hand these records to an existing reader's function instead",
    );
  }
  readersPerStream.set(streamArn, readers + 1);
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const checkpoints = new Checkpoints(options.checkpointFile);
  const stopping = new AbortController();
  const workers = new Map<string, Promise<void>>();
  const finished = new Set<string>();
  let firstDiscovery = true;

  /**
   * Where to read a shard from: after the checkpoint, else the mapping's starting position (a shard
   * found later, from its start). `fromStart` says the iterator is at the shard's start (TRIM_HORIZON);
   * `skipThrough`, that records up to that sequence number were handled before.
   *
   * DynamoDB Local numbers a stream's records from one counter, which it sets again at start from the
   * records its streams hold. A stream switched on after its table's items were written (a restore's
   * copy: the items were put with the stream off) gets a StartingSequenceNumber from the counter as it
   * was then, and after a restart its new records get lower numbers than that. DynamoDB Local then
   * refuses AFTER_SEQUENCE_NUMBER for them ("Invalid SequenceNumber for the shard"), and an iterator
   * read empty from TRIM_HORIZON comes back positioned at StartingSequenceNumber, past every new
   * record. So the reader keeps its position itself: from the start again while the shard has given
   * nothing, and from the start skipping what it handled when its checkpoint is refused. In AWS the
   * numbers of a shard only grow (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_SequenceNumberRange.html)
   * and neither case arises.
   */
  async function shardIterator(
    shard: Shard,
    existedAtStart: boolean,
  ): Promise<{ iterator: string | undefined; fromStart: boolean; skipThrough?: string }> {
    const checkpoint = checkpoints.get(shard.ShardId!);
    // The mapping's starting position applies where it has no position yet, as when Lambda creates a
    // mapping (a deploy onto a restored table's new stream): TRIM_HORIZON reads every record the
    // shard holds, LATEST only those after the mapping starts polling, which "could miss events
    // during a create or update" (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html, "Polling
    // and stream starting positions"): every consumer the stack declares takes TRIM_HORIZON, so the
    // writes between a restore's stream going on and the deploy are processed too.
    const type = existedAtStart ? definition.startingPosition : 'TRIM_HORIZON';
    const fromStart = async (skipThrough?: string) => {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      return { iterator: ShardIterator, fromStart: true, ...(skipThrough ? { skipThrough } : {}) };
    };
    if (!checkpoint) {
      if (type === 'TRIM_HORIZON') return fromStart();
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: type }),
      );
      return { iterator: ShardIterator, fromStart: false };
    }
    try {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
          SequenceNumber: checkpoint,
        }),
      );
      return { iterator: ShardIterator, fromStart: false };
    } catch (error) {
      // Trimmed: what the checkpoint follows is gone, so from the oldest record there is.
      if (error instanceof TrimmedDataAccessException) return fromStart();
      if ((error as Error).name === 'ValidationException' && /Invalid SequenceNumber/i.test((error as Error).message)) {
        return fromStart(checkpoint);
      }
      throw error;
    }
  }

  /** Invoke with `records` until they are done or given up on, as the mapping's retry rules say. */
  async function processBatch(shardId: string, records: DynamoDBRecord[]): Promise<void> {
    let remaining = records;
    for (let retries = 0; ; retries++) {
      let failedFrom: number;
      let functionError: string;
      try {
        const event: DynamoDBStreamEvent = { Records: remaining };
        const response = await invoke<DynamoDBStreamEvent, DynamoDBBatchResponse | undefined>(definition, options.functionName, event, log);
        const failures = definition.reportBatchItemFailures ? (response?.batchItemFailures ?? []) : [];
        if (failures.length === 0) return;
        const positions = failures.map((f) => remaining.findIndex((r) => r.dynamodb?.SequenceNumber === f.itemIdentifier));
        // An identifier that names no record of the batch fails the whole batch, as in Lambda.
        failedFrom = positions.some((p) => p < 0) ? 0 : Math.min(...positions);
        functionError = 'PartialBatchFailure';
      } catch (error) {
        log(`${options.functionName} failed on ${remaining.length} record(s): ${(error as Error).message}`);
        if (definition.bisectBatchOnFunctionError && remaining.length > 1) {
          const half = Math.ceil(remaining.length / 2);
          await processBatch(shardId, remaining.slice(0, half));
          await processBatch(shardId, remaining.slice(half));
          return;
        }
        failedFrom = 0;
        functionError = 'Unhandled';
      }
      remaining = remaining.slice(failedFrom);
      const oldest = Number(remaining[0]!.dynamodb!.ApproximateCreationDateTime) * 1000;
      const tooOld = definition.maximumRecordAgeSeconds >= 0 && Date.now() - oldest > definition.maximumRecordAgeSeconds * 1000;
      if (retries >= definition.maximumRetryAttempts || tooOld) {
        await options.onFailure(
          failureRecord(shardId, remaining, retries + 1, tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted', functionError),
        );
        log(`${options.functionName}: ${remaining.length} record(s) sent to the on-failure destination`);
        return;
      }
      await sleep(Math.min(5000, 200 * 2 ** retries), stopping.signal);
      // Stopped mid-retry: the checkpoint stays before these records, so the next start retries them.
      if (stopping.signal.aborted) throw new StoppedError();
    }
  }

  function failureRecord(shardId: string, records: DynamoDBRecord[], invokeCount: number, condition: string, functionError: string) {
    const first = records[0]!.dynamodb!;
    const last = records.at(-1)!.dynamodb!;
    return {
      requestContext: {
        requestId: randomUUID(),
        functionArn: `arn:aws:lambda:local:000000000000:function:${options.functionName}`,
        condition,
        approximateInvokeCount: invokeCount,
      },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: first.SequenceNumber,
        endSequenceNumber: last.SequenceNumber,
        approximateArrivalOfFirstRecord: new Date(Number(first.ApproximateCreationDateTime) * 1000).toISOString(),
        approximateArrivalOfLastRecord: new Date(Number(last.ApproximateCreationDateTime) * 1000).toISOString(),
        batchSize: records.length,
        streamArn,
      },
    };
  }

  async function pollShard(shard: Shard, existedAtStart: boolean): Promise<void> {
    const shardId = shard.ShardId!;
    // Children wait for their parent, so the records of one key are handled in order.
    while (shard.ParentShardId && workers.has(shard.ParentShardId) && !finished.has(shard.ParentShardId)) {
      if (stopping.signal.aborted) return;
      await sleep(pollIntervalMs, stopping.signal);
    }
    let { iterator, fromStart, skipThrough } = await shardIterator(shard, existedAtStart);
    const buffer: DynamoDBRecord[] = [];
    let firstBufferedAt = 0;
    let lastSeen: string | undefined;

    while (!stopping.signal.aborted) {
      let fetched = 0;
      if (iterator && buffer.length < definition.batchSize) {
        try {
          // As Lambda does: read as much as the stream gives, filter, then cut batches of batchSize.
          const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
          iterator = NextShardIterator;
          fetched = Records.length;
          for (const raw of Records) {
            const record = toLambdaRecord(raw, streamArn);
            const sequenceNumber = record.dynamodb!.SequenceNumber!;
            // Read again from the start after a refused checkpoint: handled before the restart.
            if (skipThrough && BigInt(sequenceNumber) <= BigInt(skipThrough)) continue;
            lastSeen = sequenceNumber;
            if (!matchesAny(definition.filters, record)) continue;
            if (buffer.length === 0) firstBufferedAt = Date.now();
            buffer.push(record);
          }
          if (Records.length > 0) fromStart = false;
          // Nothing in the shard yet: from its start again next time (see shardIterator), not from
          // the position DynamoDB Local handed back.
          else if (fromStart && iterator) ({ iterator, fromStart, skipThrough } = await shardIterator(shard, false));
        } catch (error) {
          if (!(error instanceof ExpiredIteratorException)) throw error;
          // Start again from the checkpoint (or the shard's start): what the buffer holds is read again.
          buffer.length = 0;
          ({ iterator, fromStart, skipThrough } = await shardIterator(shard, false));
          continue;
        }
      }
      if (buffer.length === 0) {
        // Only filtered-out records (or none): they count as processed.
        if (lastSeen && lastSeen !== checkpoints.get(shardId)) checkpoints.set(shardId, lastSeen);
        if (!iterator) break;
        // Caught up with the shard: wait before asking again (Lambda polls about four times a second).
        if (fetched === 0) await sleep(pollIntervalMs, stopping.signal);
        continue;
      }
      const windowOpen = Date.now() - firstBufferedAt < definition.maxBatchingWindowSeconds * 1000;
      if (iterator && buffer.length < definition.batchSize && windowOpen) {
        if (fetched === 0) await sleep(pollIntervalMs, stopping.signal);
        continue;
      }
      const batch = buffer.splice(0, definition.batchSize);
      try {
        await processBatch(shardId, batch);
      } catch (error) {
        if (error instanceof StoppedError) return;
        throw error;
      }
      // The last record handled (filtered records after it are simply read and dropped again after a restart).
      const lastOfBatch = batch.at(-1)!.dynamodb!.SequenceNumber!;
      checkpoints.set(shardId, buffer.length > 0 ? lastOfBatch : (lastSeen ?? lastOfBatch));
      if (buffer.length > 0) firstBufferedAt = Date.now();
    }
    if (!iterator && buffer.length === 0) finished.add(shardId);
  }

  async function discover(): Promise<void> {
    let exclusiveStart: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStart }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        if (workers.has(shard.ShardId!)) continue;
        const worker = pollShard(shard, firstDiscovery).catch((error) => {
          log(`Stream poller for ${shard.ShardId} stopped: ${(error as Error).stack ?? String(error)}`);
          workers.delete(shard.ShardId!);
        });
        workers.set(shard.ShardId!, worker);
      }
      exclusiveStart = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStart);
    firstDiscovery = false;
  }

  const discovery = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await discover();
      } catch (error) {
        if (!stopping.signal.aborted) log(`DescribeStream failed: ${(error as Error).message}`);
      }
      await sleep(2000, stopping.signal);
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await discovery;
      await Promise.all(workers.values());
      readersPerStream.set(streamArn, (readersPerStream.get(streamArn) ?? 1) - 1);
    },
  };
}

class StoppedError extends Error {}

// ——— SQS queue ————————————————————————————————————————————————————————————————————————

export interface QueueEventSourceOptions {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  functionName: string;
  definition: QueueConsumerDefinition;
  log?: (line: string) => void;
}

function toLambdaMessage(message: Message, queueArn: string, region: string): SQSRecord {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: message.Attributes as unknown as SQSRecord['attributes'],
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          stringValue: value.StringValue,
          binaryValue: value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined,
          dataType: value.DataType!,
        },
      ]),
    ) as SQSRecord['messageAttributes'],
    md5OfBody: message.MD5OfBody!,
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

export function startQueueEventSource(options: QueueEventSourceOptions): RunningEventSource {
  const { sqs, queueUrl, queueArn, definition, log = () => undefined } = options;
  const region = queueArn.split(':')[3] ?? 'us-east-1';
  const stopping = new AbortController();

  async function receiveBatch(): Promise<Message[]> {
    const messages: Message[] = [];
    const windowEnds = Date.now() + definition.maxBatchingWindowSeconds * 1000;
    do {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: Math.min(10, definition.batchSize - messages.length),
          WaitTimeSeconds: messages.length === 0 ? 1 : 0,
          MessageSystemAttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }),
        { abortSignal: stopping.signal },
      );
      messages.push(...Messages);
      if (Messages.length === 0 && messages.length > 0) break;
    } while (messages.length > 0 && messages.length < definition.batchSize && Date.now() < windowEnds);
    return messages;
  }

  async function poll(): Promise<void> {
    while (!stopping.signal.aborted) {
      let messages: Message[];
      try {
        messages = await receiveBatch();
      } catch (error) {
        if (stopping.signal.aborted) return;
        log(`ReceiveMessage on ${queueArn} failed: ${(error as Error).message}`);
        await sleep(1000, stopping.signal);
        continue;
      }
      if (messages.length === 0) continue;

      const records = messages.map((m) => toLambdaMessage(m, queueArn, region));
      let done: SQSRecord[] = [];
      try {
        const response = await invoke<SQSEvent, SQSBatchResponse | undefined>(definition, options.functionName, { Records: records }, log);
        const failures = definition.reportBatchItemFailures ? (response?.batchItemFailures ?? []) : [];
        const failed = new Set(failures.map((f) => f.itemIdentifier));
        // An identifier that names no message of the batch fails the whole batch, as in Lambda.
        if (![...failed].every((id) => records.some((r) => r.messageId === id))) {
          log(`${options.functionName} reported an unknown message id: the whole batch is retried`);
        } else {
          done = records.filter((r) => !failed.has(r.messageId));
        }
      } catch (error) {
        log(`${options.functionName} failed on ${records.length} message(s): ${(error as Error).message}`);
      }
      if (done.length > 0) {
        await sqs
          .send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          )
          .catch((error) => log(`DeleteMessageBatch on ${queueArn} failed: ${(error as Error).message}`));
      }
    }
  }

  const pollers = Array.from({ length: definition.maxConcurrency }, () => poll());
  return {
    async stop() {
      stopping.abort();
      await Promise.all(pollers);
    },
  };
}

/** Lambda's on-failure destination for a stream mapping, when it is an SQS queue. */
export function sendToQueue(sqs: SQSClient, queueUrl: string) {
  return async (record: Record<string, unknown>) => {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(record) }));
  };
}
