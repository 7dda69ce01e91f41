/**
 * `cxctl migrate` beyond the survey-response layout (test/integration/upgrade.test.ts has that): a table
 * the sandbox creates has every migration recorded as not needed; gsi1 made with another projection is
 * rebuilt in place in DynamoDB Local, and in AWS (a table not of the sandbox) refused with what to do.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { gsi1Projection } from '../../lib/admin/migrations/001-gsi1-projection.ts';
import { WriteRate } from '../../lib/admin/migrations/write-rate.ts';
import { AdminError, createLocalTableClient, type TableClient } from '../../lib/admin/table-client.ts';
import { GSI1_NON_KEY_ATTRIBUTES } from '../../lib/entities.ts';
import { TABLE } from '../../lib/platform/data/table.ts';
import { sandbox } from '../support/fixtures.ts';

const run = promisify(execFile);

async function cxctl(table: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/cxctl.mjs', ...args, '--endpoint', sandbox.dynamodbEndpoint], {
      env: { ...process.env, TABLE_NAME: table },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const tables: TableClient[] = [];

/** A table as the stack defined it before gsi1 projected what it does now (here: only `workspace`). */
async function tableWithOldIndex(): Promise<TableClient> {
  const store = createLocalTableClient(`old-index-${randomBytes(4).toString('hex')}`, sandbox.dynamodbEndpoint);
  tables.push(store);
  await store.db.send(
    new CreateTableCommand({
      TableName: store.table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: TABLE.gsi1.name,
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['workspace'] },
        },
      ],
    }),
  );
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { pk: 'WS#acme', sk: 'SOP#s1', gsi1pk: 'WS#acme#SOPS', gsi1sk: 'published#s1', workspace: 'acme', titleEn: 'Refunds' },
    }),
  );
  return store;
}

afterAll(async () => {
  for (const store of tables) {
    await store.db.send(new DeleteTableCommand({ TableName: store.table })).catch(() => undefined);
    store.db.destroy();
  }
});

describe('cxctl migrate', () => {
  it('finds nothing to do on a table the sandbox created: every migration is recorded as not needed', async () => {
    const status = await cxctl(sandbox.tableName, 'migrate', 'status', '--json');
    expect(status.code, status.stderr).toBe(0);
    for (const migration of JSON.parse(status.stdout)) {
      expect(migration).toMatchObject({ state: 'finished', note: 'created with this layout: nothing to migrate' });
    }
    const again = await cxctl(sandbox.tableName, 'migrate');
    expect(again.stdout).toContain('Every migration has already run on this table: nothing to do');
  });

  it('rebuilds gsi1 in place in DynamoDB Local when its projection differs from the code, then serves its lists', async () => {
    const store = await tableWithOldIndex();
    const before = await store.db.send(
      new QueryCommand({
        TableName: store.table,
        IndexName: TABLE.gsi1.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': 'WS#acme#SOPS' },
      }),
    );
    expect(before.Items?.[0]).not.toHaveProperty('titleEn');

    const dry = await cxctl(store.table, 'migrate', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('gsi1 lacks [');
    expect(dry.stdout).toContain('would rebuild it');

    const migrated = await cxctl(store.table, 'migrate');
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('001-gsi1-projection: finished (indexes rebuilt 1)');
    const { Table } = await store.db.send(new DescribeTableCommand({ TableName: store.table }));
    const index = Table?.GlobalSecondaryIndexes?.find((gsi) => gsi.IndexName === TABLE.gsi1.name);
    expect(index?.Projection?.NonKeyAttributes?.slice().sort()).toEqual([...GSI1_NON_KEY_ATTRIBUTES].sort());
    const after = await store.db.send(
      new QueryCommand({
        TableName: store.table,
        IndexName: TABLE.gsi1.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': 'WS#acme#SOPS' },
      }),
    );
    expect(after.Items?.[0]).toMatchObject({ sk: 'SOP#s1', titleEn: 'Refunds' });
  });

  it('refuses to rebuild the index of a deployed table, saying what an operator does instead', async () => {
    const store = await tableWithOldIndex();
    const context = {
      store,
      dryRun: false,
      local: false,
      resumeFrom: undefined,
      counts: {},
      rate: new WriteRate(10),
      step: async () => true,
      log: () => undefined,
    };
    await expect(gsi1Projection.run(context)).rejects.toThrow(AdminError);
    await expect(gsi1Projection.run(context)).rejects.toThrow(/deploy once without it, then again with it/);
  });

  it('refuses a write rate that is not a whole number of writes a second', async () => {
    const refused = await cxctl(sandbox.tableName, 'migrate', '--rate', '0');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Invalid --rate "0"');
  });
});
