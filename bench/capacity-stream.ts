/**
 * The table stream's consumer at the batch size AWS would deliver, for the capacity model. A
 * consumer's per-batch writes (a summary day bucket) are paid once per batch, so what they cost a
 * call depends on how many records a batch holds, and that on the rate. The sandbox is told to hold
 * its own consumer (SandboxOptions.holdStreamFanOut); the bench marks where each shard ends before a
 * workload, and afterwards hands the handler the workload's records in batches of exactly that size,
 * through the same invocation the sandbox's mapping uses (IAM checked, calls counted, capacity tapped).
 *
 * The batch size at a rate (Lambda's DynamoDB event source, https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html):
 * Lambda polls each shard four times a second and invokes with up to BatchSize records (no batching
 * window here: cdk/constructs/webhook-pipeline.ts, lib/webhooks/pipeline.ts; parallelization factor 1),
 * so a shard receiving r records a second hands over about r / 4 at a time. A stream has a shard per
 * table partition, and the writes behind the records need at least one partition per 1,000 write
 * units a second: shards = ⌈rate × table write units per call / 1,000⌉. Fewer records per shard make
 * smaller batches, so this errs towards more per-batch writes, never fewer.
 */
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamConsumerDefinition } from '../lib/platform/event-sources.ts';
import { invoke, matchesFilter, toLambdaRecord } from '../local/event-source-mappings.ts';

const POLLS_PER_SECOND = 4;
/** Tries of a batch whose handler reported a failed record. */
const RETRIES = 4;

/** The stream's shards at `rate` calls a second, and the records a batch holds. */
export function awsStreamShape(
  definition: StreamConsumerDefinition,
  rate: number,
  recordsPerCall: number,
  tableWritesPerCall: number,
): { shards: number; batchSize: number } {
  const shards = Math.max(1, Math.ceil((rate * tableWritesPerCall) / 1_000));
  const perShardPerPoll = (rate * recordsPerCall) / shards / POLLS_PER_SECOND;
  return { shards, batchSize: Math.max(1, Math.min(definition.batchSize, Math.floor(perShardPerPoll))) };
}

export class StreamFeeder {
  private readonly streams: DynamoDBStreamsClient;
  /** The last sequence number of each shard when the workload began (undefined: the shard was empty). */
  private marks = new Map<string, string | undefined>();

  constructor(
    endpoint: string,
    private readonly streamArn: string,
  ) {
    this.streams = new DynamoDBStreamsClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }

  private async shardIds(): Promise<string[]> {
    const ids: string[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      ids.push(...(StreamDescription?.Shards ?? []).map((shard) => shard.ShardId as string));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return ids;
  }

  /** Every record of a shard after `after` (all of them when undefined), as far as the shard goes now. */
  private async recordsAfter(shardId: string, after: string | undefined): Promise<StreamRecord[]> {
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    const records: StreamRecord[] = [];
    let iterator = ShardIterator;
    while (iterator) {
      const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      records.push(...(page.Records ?? []));
      if ((page.Records ?? []).length === 0) break;
      iterator = page.NextShardIterator;
    }
    return records;
  }

  /** Remember where every shard ends now: the workload's records are the ones after it. */
  async mark(): Promise<void> {
    this.marks = new Map();
    for (const shardId of await this.shardIds()) {
      const records = await this.recordsAfter(shardId, undefined);
      this.marks.set(shardId, records.at(-1)?.dynamodb?.SequenceNumber);
    }
  }

  /**
   * Hand `definition`'s handler the records written since `mark()` that its filters pass, `batchSize`
   * at a time in each shard's order, waiting until `expected` records (filtered or not) have arrived.
   */
  async feed(options: {
    definition: StreamConsumerDefinition;
    functionName: string;
    batchSize: number;
    expected: number;
  }): Promise<number> {
    const deadline = Date.now() + 30_000;
    let byShard: DynamoDBRecord[][] = [];
    for (;;) {
      byShard = [];
      let arrived = 0;
      for (const shardId of await this.shardIds()) {
        const records = await this.recordsAfter(shardId, this.marks.get(shardId));
        arrived += records.length;
        byShard.push(records.map((record) => toLambdaRecord(record, this.streamArn)));
      }
      if (arrived >= options.expected) break;
      if (Date.now() > deadline) throw new Error(`Only ${arrived} of ${options.expected} stream records arrived`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { definition } = options;
    const passes = (record: DynamoDBRecord) => definition.filters.length === 0 || definition.filters.some((f) => matchesFilter(f, record));
    let batches = 0;
    for (const records of byShard) {
      const handed = records.filter(passes);
      for (let i = 0; i < handed.length; i += options.batchSize) {
        let records = handed.slice(i, i + options.batchSize);
        // As the mapping does: a reported failure (a timeout on an overloaded machine) is retried from that record on.
        for (let attempt = 1; records.length > 0; attempt++) {
          const event: DynamoDBStreamEvent = { Records: records };
          const response = await invoke<DynamoDBStreamEvent, DynamoDBBatchResponse | undefined>(
            definition,
            options.functionName,
            event,
            () => undefined,
          );
          const failed = (response?.batchItemFailures ?? [])[0]?.itemIdentifier;
          if (failed === undefined) break;
          if (attempt >= RETRIES) throw new Error(`${options.functionName} kept failing on record ${failed}`);
          records = records.slice(
            Math.max(
              0,
              records.findIndex((record) => record.dynamodb?.SequenceNumber === failed),
            ),
          );
        }
        batches++;
      }
    }
    return batches;
  }

  destroy(): void {
    this.streams.destroy();
  }
}
