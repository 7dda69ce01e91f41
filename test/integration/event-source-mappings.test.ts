/**
 * The sandbox's event source mappings (local/event-source-mappings.ts) behave as Lambda's: batches,
 * filters, partial batch failures, bisect on error, bounded retries and the on-failure
 * destination for the DynamoDB stream; partial failures, redelivery and redrive for SQS. Each test
 * runs its own mapping on the sandbox's real DynamoDB Local stream or fauxqs, with a probe handler.
 */
import { randomBytes } from 'node:crypto';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueConsumerDefinition, StreamConsumerDefinition } from '../../lib/platform/event-sources.ts';
import { type RunningEventSource, startQueueEventSource, startStreamEventSource } from '../../local/event-source-mappings.ts';
import { ensureQueues } from '../../local/queues.ts';
import { adminStore, sandbox } from '../support/fixtures.ts';
import { eventually } from '../support/webhook-receiver.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const streams = new DynamoDBStreamsClient({ endpoint: sandbox.dynamodbEndpoint, region: 'us-east-1', credentials });
const sqs = new SQSClient({ endpoint: sandbox.sqsEndpoint, region: 'us-east-1', credentials });
const PROBE = 'test/support/probe-handler.ts' as `functions/${string}.ts`;
let streamArn: string;
const running: RunningEventSource[] = [];

type Probe = (event: any) => Promise<unknown>;
const setProbe = (probe: Probe) => ((globalThis as unknown as { eventSourceProbe: Probe }).eventSourceProbe = probe);

beforeAll(async () => {
  const ddb = new DynamoDBClient({ endpoint: sandbox.dynamodbEndpoint, region: 'us-east-1', credentials });
  streamArn = (await ddb.send(new DescribeTableCommand({ TableName: sandbox.tableName }))).Table!.LatestStreamArn!;
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

describe('stream event source', () => {
  const run = () => randomBytes(4).toString('hex');
  const definition = (runId: string): StreamConsumerDefinition => ({
    handler: PROBE,
    timeoutSeconds: 10,
    table: [],
    batchSize: 10,
    maxBatchingWindowSeconds: 1,
    bisectBatchOnFunctionError: true,
    maximumRetryAttempts: 2,
    maximumRecordAgeSeconds: 3600,
    reportBatchItemFailures: true,
    startingPosition: 'TRIM_HORIZON',
    filters: [{ dynamodb: { NewImage: { entity: { S: ['Probe'] }, run: { S: [runId] } } } }],
    onFailure: { id: 'unused', sandboxName: 'unused', visibilityTimeoutSeconds: 30, retentionSeconds: 60 },
  });
  const put = (runId: string, name: string, entity = 'Probe') =>
    adminStore().db.send(
      new PutCommand({ TableName: adminStore().table, Item: { pk: `PROBE#${runId}`, sk: name, entity, run: runId, name } }),
    );
  const names = (event: DynamoDBStreamEvent) => event.Records.map((r) => r.dynamodb!.NewImage!.name!.S!);

  it('retries from the first reported failure, keeps the records before it done, and filters before batching', async () => {
    const runId = run();
    const batches: string[][] = [];
    let failuresLeft = 2;
    setProbe(async (event: DynamoDBStreamEvent) => {
      batches.push(names(event));
      const x = event.Records.find((r) => r.dynamodb!.NewImage!.name!.S === 'x');
      if (x && failuresLeft-- > 0) return { batchItemFailures: [{ itemIdentifier: x.dynamodb!.SequenceNumber }] };
      return { batchItemFailures: [] };
    });
    running.push(
      startStreamEventSource({
        streams,
        streamArn,
        functionName: 'probe',
        definition: definition(runId),
        onFailure: async () => undefined,
      }),
    );
    for (const name of ['a', 'b', 'ignored', 'x', 'c']) await put(runId, name, name === 'ignored' ? 'Other' : 'Probe');
    await eventually(
      async () => batches.length,
      (n) => n >= 3,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(batches).toEqual([
      ['a', 'b', 'x', 'c'],
      ['x', 'c'],
      ['x', 'c'],
    ]);
  });

  it('bisects a failing batch, gives up on the poison record after its retries and sends it to the on-failure destination', async () => {
    const runId = run();
    const batches: string[][] = [];
    const failures: any[] = [];
    setProbe(async (event: DynamoDBStreamEvent) => {
      batches.push(names(event));
      if (names(event).includes('poison')) throw new Error('cannot handle poison');
      return { batchItemFailures: [] };
    });
    running.push(
      startStreamEventSource({
        streams,
        streamArn,
        functionName: 'probe',
        definition: definition(runId),
        onFailure: async (r) => void failures.push(r),
      }),
    );
    for (const name of ['a', 'poison', 'b', 'c']) await put(runId, name);
    await eventually(
      async () => batches.at(-1),
      (last) => last?.join() === 'b,c',
    );
    expect(batches).toEqual([['a', 'poison', 'b', 'c'], ['a', 'poison'], ['a'], ['poison'], ['poison'], ['poison'], ['b', 'c']]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
      responseContext: { functionError: 'Unhandled' },
      DDBStreamBatchInfo: { batchSize: 1, streamArn },
    });
    expect(failures[0].DDBStreamBatchInfo.startSequenceNumber).toBe(failures[0].DDBStreamBatchInfo.endSequenceNumber);
  });

  it('refuses a third reader on one stream, as AWS recommends at most two per shard', () => {
    const start = (functionName: string) =>
      startStreamEventSource({ streams, streamArn, functionName, definition: definition(run()), onFailure: async () => undefined });
    running.push(start('first'), start('second'));
    expect(() => start('third')).toThrow(/already has 2 Lambda readers.*Streams\.Lambda\.BestPracticesWithDynamoDBStreams/);
  });
});

describe('queue event source', () => {
  async function queue(maxReceiveCount: number) {
    const suffix = randomBytes(4).toString('hex');
    const dlq = { id: 'Dlq', sandboxName: `esm-dlq-${suffix}`, visibilityTimeoutSeconds: 30, retentionSeconds: 3600 };
    const main = {
      id: 'Main',
      sandboxName: `esm-${suffix}`,
      visibilityTimeoutSeconds: 1,
      retentionSeconds: 3600,
      deadLetter: { queue: dlq, maxReceiveCount },
    };
    const queues = await ensureQueues(sqs, sandbox.sqsEndpoint, [dlq, main]);
    return { main: queues.get(main)!, dlq: queues.get(dlq)! };
  }
  const definition: QueueConsumerDefinition = {
    handler: PROBE,
    timeoutSeconds: 10,
    table: [],
    queue: { id: 'unused', sandboxName: 'unused', visibilityTimeoutSeconds: 1, retentionSeconds: 60 },
    batchSize: 10,
    maxBatchingWindowSeconds: 0,
    maxConcurrency: 2,
    reportBatchItemFailures: true,
  };

  it('deletes the messages that succeeded, redelivers the reported failures and redrives them to the dead-letter queue', async () => {
    const { main, dlq } = await queue(2);
    const seen: string[] = [];
    setProbe(async (event: SQSEvent) => {
      seen.push(...event.Records.map((r) => r.body));
      return { batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({ itemIdentifier: r.messageId })) };
    });
    running.push(startQueueEventSource({ sqs, queueUrl: main.url, queueArn: main.arn, functionName: 'probe', definition }));
    await sqs.send(new SendMessageCommand({ QueueUrl: main.url, MessageBody: 'good' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: main.url, MessageBody: 'bad' }));
    const parked = await eventually(
      async () => (await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, WaitTimeSeconds: 1 }))).Messages ?? [],
      (messages) => messages.length > 0,
    );
    expect(parked.map((m) => m.Body)).toEqual(['bad']);
    expect(seen.filter((b) => b === 'good')).toHaveLength(1);
    expect(seen.filter((b) => b === 'bad')).toHaveLength(2);
  });

  it('keeps every message of a batch whose invocation threw', async () => {
    const { main } = await queue(5);
    const seen: string[] = [];
    let throwsLeft = 1;
    setProbe(async (event: SQSEvent) => {
      seen.push(...event.Records.map((r) => r.body));
      if (throwsLeft-- > 0) throw new Error('crash');
      return { batchItemFailures: [] };
    });
    running.push(startQueueEventSource({ sqs, queueUrl: main.url, queueArn: main.arn, functionName: 'probe', definition }));
    await sqs.send(new SendMessageCommand({ QueueUrl: main.url, MessageBody: 'survivor' }));
    await eventually(
      async () => seen.length,
      (n) => n >= 2,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen).toEqual(['survivor', 'survivor']);
  });
});
