/**
 * `cxctl backup restore --to NAME` only ever creates its table (lib/admin/restore.ts), in the
 * sandbox and on the AWS path (`--table`, here pointed at the sandbox's DynamoDB Local, which
 * answers every call that path makes before RestoreTableToPointInTime): an existing table it did not
 * make is refused and left byte for byte as it was, its items and its settings; a name DynamoDB or
 * DynamoDB Local cannot take is refused with a clear message instead of an InternalFailure; the copy
 * is made like its source (gsi1 included); a finished restore is not done again, and an interrupted
 * one is finished by running the command again. Each source is a small table of its own beside the
 * test run's, so the copies are quick and see no other test's writes.
 */
import { randomBytes } from 'node:crypto';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  PutItemCommand,
  ScanCommand,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreTable } from '../../lib/admin/restore.ts';
import { createLocalTableClient } from '../../lib/admin/table-client.ts';
import { createTableInput } from '../../lib/admin/table-layout.ts';
import { sandbox } from '../support/fixtures.ts';
import { cxctl, operatorEnvironment } from '../support/operator.ts';

const settings = {
  endpoint: sandbox.dynamodbEndpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};
const dynamodb = new DynamoDBClient(settings);
const streams = new DynamoDBStreamsClient(settings);
const suffix = randomBytes(3).toString('hex');
const SOURCE = `restore-source-${suffix}`;

afterAll(() => {
  dynamodb.destroy();
  streams.destroy();
});

const describeTable = async (name: string) => (await dynamodb.send(new DescribeTableCommand({ TableName: name }))).Table!;
const tableNames = async () => (await dynamodb.send(new ListTablesCommand({}))).TableNames ?? [];
const scan = async (name: string) => (await dynamodb.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];

/** Everything DynamoDB says of a table: its description, its time to live and its items, as JSON. */
async function snapshot(name: string): Promise<string> {
  const ttl = await dynamodb.send(new DescribeTimeToLiveCommand({ TableName: name }));
  return JSON.stringify({ table: await describeTable(name), ttl: ttl.TimeToLiveDescription, items: await scan(name) });
}

/** cxctl on the sandbox, restoring `source`. */
const restore = (to: string, source = SOURCE) => cxctl(['backup', 'restore', '--to', to], operatorEnvironment(source));

/** The same through the AWS path (`--table`), on the sandbox's DynamoDB Local. */
const restoreOnAwsPath = (to: string) =>
  cxctl(['backup', 'restore', '--to', to, '--table', SOURCE, '--endpoint', sandbox.dynamodbEndpoint, '--region', 'us-east-1'], {
    ...operatorEnvironment(SOURCE),
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });

const indexesOf = (table: TableDescription) =>
  (table.GlobalSecondaryIndexes ?? []).map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection }));

beforeAll(async () => {
  // A source made as the sandbox makes its table (gsi1 with its projection), with an item on gsi1.
  await dynamodb.send(new CreateTableCommand(createTableInput(SOURCE)));
  for (const n of [1, 2, 3]) {
    await dynamodb.send(
      new PutItemCommand({
        TableName: SOURCE,
        Item: { pk: { S: `WS#restored` }, sk: { S: `IDEA#${n}` }, gsi1pk: { S: 'G' }, gsi1sk: { S: `${n}` }, entity: { S: 'Idea' } },
      }),
    );
  }
});

describe('cxctl backup restore', () => {
  it('refuses an existing table it did not make and leaves it as it was, items and settings, in the sandbox and on the AWS path', async () => {
    const other = `other-pksk-${suffix}`;
    await dynamodb.send(
      new CreateTableCommand({
        TableName: other,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    await dynamodb.send(new PutItemCommand({ TableName: other, Item: { pk: { S: 'mine' }, sk: { S: 'only' }, n: { N: '1' } } }));
    // And one keyed otherwise, which cannot even hold the mark.
    const otherKeyed = `other-id-${suffix}`;
    await dynamodb.send(
      new CreateTableCommand({
        TableName: otherKeyed,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    for (const table of [other, otherKeyed]) {
      const before = await snapshot(table);
      for (const attempt of [() => restore(table), () => restoreOnAwsPath(table)]) {
        const { code, stdout, stderr } = await attempt();
        expect(code, stdout).toBe(1);
        expect(stderr.trim()).toBe(
          `cxctl: Table ${table} already exists and is not a restore this command started (it holds no restore mark of this table): ` +
            'cxctl changes nothing in it. A restore only ever creates its table: name a new one with --to',
        );
        expect(stdout).not.toContain('Restored');
        expect(await snapshot(table)).toBe(before);
      }
    }
  });

  it("refuses names DynamoDB does not take, and those DynamoDB Local's SQLite cannot hold, with a clear message", async () => {
    const before = (await tableNames()).sort();
    const upper = SOURCE.toUpperCase();
    const cases: [string, RegExp][] = [
      ['ab', /^cxctl: Invalid table name "ab": DynamoDB takes 3 to 255 characters of a-z A-Z 0-9 _ - \. \(it has 2\)$/],
      ['my copy', /^cxctl: Invalid table name "my copy": .*\(it has " "\)$/],
      [upper, new RegExp(`^cxctl: DynamoDB Local cannot make a table named "${upper}" beside "${SOURCE}": it keeps each table in SQLite`)],
      ['sqlite_copy', /^cxctl: DynamoDB Local cannot make a table named "sqlite_copy": it keeps each table in SQLite/],
    ];
    for (const [name, message] of cases) {
      const { code, stderr } = await restore(name);
      expect(code).toBe(1);
      expect(stderr.trim()).toMatch(message);
      expect(stderr).not.toContain('InternalFailure');
    }
    expect((await tableNames()).sort()).toEqual(before);
  });

  it('makes the copy like its source, gsi1 included, marked, with its stream on and empty; a finished restore is not made again', async () => {
    const to = `restore-copy-${suffix}`;
    const { code, stdout, stderr } = await restore(to);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`Restored into ${to}`);
    const [source, copy] = [await describeTable(SOURCE), await describeTable(to)];
    expect(indexesOf(copy)).toEqual(indexesOf(source));
    expect(indexesOf(copy).map((index) => index.IndexName)).toEqual(['gsi1']);
    expect(copy.KeySchema).toEqual(source.KeySchema);
    expect(copy.DeletionProtectionEnabled).toBe(true);
    const items = await scan(to);
    expect(items.filter((item) => item.entity?.S === 'Idea')).toHaveLength(3);
    expect(items.filter((item) => item.entity?.S === 'RestoreMark')).toEqual([
      expect.objectContaining({ pk: { S: 'TABLE#OPERATOR' }, sk: { S: 'RESTORE' }, restoreOf: { S: SOURCE } }),
    ]);
    // The stream is turned on last: nothing the copy wrote is in it.
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: copy.LatestStreamArn }));
    expect(StreamDescription?.StreamStatus).toBe('ENABLED');
    for (const shard of StreamDescription?.Shards ?? []) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: copy.LatestStreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      expect((await streams.send(new GetRecordsCommand({ ShardIterator }))).Records).toEqual([]);
    }

    const before = await snapshot(to);
    const again = await restore(to);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^cxctl: Table ${to} is a restore of ${SOURCE} that finished .*cxctl changes nothing in it`));
    expect(await snapshot(to)).toBe(before);
  });

  it('finishes a restore that was stopped half-way when run again, and only that one', async () => {
    const to = `restore-stopped-${suffix}`;
    const store = createLocalTableClient(SOURCE, sandbox.dynamodbEndpoint);
    const stopped = restoreTable(dynamodb, store, {
      to,
      sandbox: true,
      log: (line) => {
        // As a Ctrl-C would, once the first page is copied and before the settings are made.
        if (line.includes('item(s) copied')) throw new Error('stopped');
      },
    });
    await expect(stopped).rejects.toThrow('stopped');
    store.db.destroy();
    expect((await describeTable(to)).StreamSpecification?.StreamEnabled).not.toBe(true);

    const { code, stderr } = await restore(to);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`${to} is an unfinished restore of ${SOURCE} by this command: copying again`);
    const copy = await describeTable(to);
    expect(copy.StreamSpecification?.StreamEnabled).toBe(true);
    expect((await scan(to)).filter((item) => item.entity?.S === 'Idea')).toHaveLength(3);
  });
});
