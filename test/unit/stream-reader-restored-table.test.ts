/**
 * The sandbox's stream reader (local/event-source-mappings.ts) on a table whose stream was switched
 * on after its items were written, as `cxctl backup restore` makes its copy, once DynamoDB Local has
 * restarted (the sandbox started on the copy): DynamoDB Local numbers the new records below the
 * stream's StartingSequenceNumber, an empty read from TRIM_HORIZON hands back an iterator past them,
 * and a checkpoint among them is refused. The reader must still hand each new record to its function
 * once, across a restart of the reader too. Its own DynamoDB Local, on a data folder, restarted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import type { StreamConsumerDefinition } from '../../lib/platform/event-sources.ts';
import { startDynamoDbLocal } from '../../local/dynamodb-local.ts';
import { type RunningEventSource, startStreamEventSource } from '../../local/event-source-mappings.ts';
import { freePort } from '../../local/wait.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'stream-reader-restored-'));
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function dynamoDbLocal() {
  const local = await startDynamoDbLocal({ port: await freePort(), dataDir: join(dataDir, 'dynamodb') });
  const settings = { endpoint: local.endpoint, region: 'us-east-1', credentials };
  const clients = { dynamodb: new DynamoDBClient(settings), streams: new DynamoDBStreamsClient(settings) };
  const stop = async () => {
    clients.dynamodb.destroy();
    clients.streams.destroy();
    await local.stop();
  };
  stops.push(stop);
  return { ...clients, stop };
}

const keyed = (name: string) => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' as const }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' as const }],
});
const put = (dynamodb: DynamoDBClient, table: string, pk: string) =>
  dynamodb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: pk } } }));

const PROBE = 'test/support/probe-handler.ts' as `functions/${string}.ts`;
const definition: StreamConsumerDefinition = {
  handler: PROBE,
  timeoutSeconds: 10,
  table: [],
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  bisectBatchOnFunctionError: false,
  maximumRetryAttempts: 0,
  maximumRecordAgeSeconds: 3600,
  reportBatchItemFailures: true,
  // As every consumer the stack declares (lib/webhooks/pipeline.ts, lib/knowledge-bank/search/pipeline.ts).
  startingPosition: 'TRIM_HORIZON',
  filters: [],
  onFailure: { id: 'unused', sandboxName: 'unused', visibilityTimeoutSeconds: 30, retentionSeconds: 60 },
};
const handled: string[] = [];
(globalThis as unknown as { eventSourceProbe: (event: DynamoDBStreamEvent) => Promise<unknown> }).eventSourceProbe = async (event) => {
  handled.push(...event.Records.map((record) => record.dynamodb!.Keys!.pk!.S!));
  return { batchItemFailures: [] };
};

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; handled: ${handled.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the stream reader on a copy whose stream was switched on after its items were written', () => {
  it('hands every write made after a restart to its function, once, across a restart of the reader too', { timeout: 120_000 }, async () => {
    let local = await dynamoDbLocal();
    // The source, with records in its stream, and the copy: items first, then the stream, as a restore makes it.
    await local.dynamodb.send(
      new CreateTableCommand({ ...keyed('source'), StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }),
    );
    for (let i = 0; i < 5; i++) await put(local.dynamodb, 'source', `source-${i}`);
    await local.dynamodb.send(new CreateTableCommand(keyed('copy')));
    for (let i = 0; i < 40; i++) await put(local.dynamodb, 'copy', `copied-${i}`);
    await local.dynamodb.send(
      new UpdateTableCommand({ TableName: 'copy', StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }),
    );
    await local.stop();

    // The sandbox started on the copy: DynamoDB Local starts again.
    local = await dynamoDbLocal();
    const streamArn = (await local.dynamodb.send(new DescribeTableCommand({ TableName: 'copy' }))).Table!.LatestStreamArn!;
    const checkpointFile = join(dataDir, 'stream-checkpoints.json');
    const reader = (): RunningEventSource =>
      startStreamEventSource({
        streams: local.streams,
        streamArn,
        functionName: 'probe',
        definition,
        onFailure: async () => undefined,
        checkpointFile,
        pollIntervalMs: 50,
      });
    // The reader reads the empty shard from its start before the first new write (what failed).
    let emptyReads = 0;
    const send = local.streams.send.bind(local.streams) as (command: unknown) => Promise<{ Records?: unknown[] }>;
    Object.assign(local.streams, {
      send: async (command: unknown) => {
        const output = await send(command);
        if (command instanceof GetRecordsCommand && output.Records?.length === 0) emptyReads++;
        return output;
      },
    });
    let running = reader();
    await until('an empty read', () => emptyReads > 0);
    await put(local.dynamodb, 'copy', 'new-1');
    await until('new-1', () => handled.includes('new-1'));
    // What made it fail: the new record is numbered below the stream's start.
    const { StreamDescription } = await local.streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const start = BigInt(StreamDescription!.Shards![0]!.SequenceNumberRange!.StartingSequenceNumber!);

    await put(local.dynamodb, 'copy', 'new-2');
    await until('new-2', () => handled.includes('new-2'));
    // The reader stops and starts again from its checkpoint (new-2), which DynamoDB Local refuses: it is below the start.
    await running.stop();
    const [checkpoint] = Object.values(JSON.parse(readFileSync(checkpointFile, 'utf8')) as Record<string, string>);
    expect(BigInt(checkpoint!)).toBeLessThan(start);
    await put(local.dynamodb, 'copy', 'new-3');
    running = reader();
    await until('new-3', () => handled.includes('new-3'));
    await put(local.dynamodb, 'copy', 'new-4');
    await until('new-4', () => handled.includes('new-4'));
    await running.stop();
    expect(handled).toEqual(['new-1', 'new-2', 'new-3', 'new-4']);
  });
});
