/**
 * Reads the sandbox table's DynamoDB stream (DynamoDB Local implements the Streams API on its own
 * endpoint) with the same Streams client the sandbox's event source mappings use.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { sandbox } from './fixtures.ts';

export type { StreamRecord };

const clientConfig = {
  endpoint: sandbox.dynamodbEndpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};

/** Start reading the table's stream at its current end; `next()` returns records written since. */
export async function tailTableStream(): Promise<{ next(): Promise<StreamRecord[]> }> {
  const tables = new DynamoDBClient(clientConfig);
  const { Table } = await tables.send(new DescribeTableCommand({ TableName: sandbox.tableName }));
  tables.destroy();
  const streams = new DynamoDBStreamsClient(clientConfig);
  const StreamArn = Table!.LatestStreamArn!;
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
  const iterators = new Map<string, string>();
  for (const { ShardId } of StreamDescription?.Shards ?? []) {
    const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: 'LATEST' }));
    iterators.set(ShardId!, ShardIterator!);
  }
  return {
    async next() {
      const records: StreamRecord[] = [];
      for (const [shard, iterator] of iterators) {
        let current: string | undefined = iterator;
        while (current) {
          const page: GetRecordsCommandOutput = await streams.send(new GetRecordsCommand({ ShardIterator: current }));
          records.push(...(page.Records ?? []));
          if (page.NextShardIterator) iterators.set(shard, page.NextShardIterator);
          current = page.Records?.length ? page.NextShardIterator : undefined;
        }
      }
      return records;
    },
  };
}
