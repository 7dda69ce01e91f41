/**
 * Reads the sandbox table's DynamoDB stream (DynamoDB Local implements the Streams API on its own
 * endpoint). The project has no Streams SDK client, so this speaks the JSON protocol directly;
 * DynamoDB Local accepts any credentials.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sandbox } from './fixtures.ts';

type AttributeMap = Record<string, Record<string, unknown>>;
export interface StreamRecord {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  dynamodb: { Keys: AttributeMap; OldImage?: AttributeMap; NewImage?: AttributeMap };
}

async function streams<T>(operation: string, body: unknown): Promise<T> {
  const res = await fetch(sandbox.dynamodbEndpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': `DynamoDBStreams_20120810.${operation}`,
      Authorization: 'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${operation} failed: ${JSON.stringify(json)}`);
  return json;
}

/** Start reading the table's stream at its current end; `next()` returns records written since. */
export async function tailTableStream(): Promise<{ next(): Promise<StreamRecord[]> }> {
  const client = new DynamoDBClient({
    endpoint: sandbox.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { Table } = await client.send(new DescribeTableCommand({ TableName: sandbox.tableName }));
  client.destroy();
  const streamArn = Table!.LatestStreamArn!;
  const { StreamDescription } = await streams<{ StreamDescription: { Shards: { ShardId: string }[] } }>('DescribeStream', { StreamArn: streamArn });
  const iterators = new Map<string, string>();
  for (const { ShardId } of StreamDescription.Shards) {
    const { ShardIterator } = await streams<{ ShardIterator: string }>('GetShardIterator', {
      StreamArn: streamArn,
      ShardId,
      ShardIteratorType: 'LATEST',
    });
    iterators.set(ShardId, ShardIterator);
  }
  return {
    async next() {
      const records: StreamRecord[] = [];
      for (const [shard, iterator] of iterators) {
        let current: string | undefined = iterator;
        while (current) {
          const page: { Records: StreamRecord[]; NextShardIterator?: string } = await streams('GetRecords', { ShardIterator: current });
          records.push(...page.Records);
          if (page.NextShardIterator) iterators.set(shard, page.NextShardIterator);
          current = page.Records.length > 0 ? page.NextShardIterator : undefined;
        }
      }
      return records;
    },
  };
}
