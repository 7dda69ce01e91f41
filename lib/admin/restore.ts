/**
 * `cxctl backup restore --to <table> [--time ISO]`: the table as it was, in a new table that a stack
 * (or the sandbox) can then be pointed at. docs/operating.md has the whole procedure.
 *
 * In AWS: a point-in-time restore (RestoreTableToPointInTime) to the given second or the latest
 * restorable one, which brings the source's indexes along; it takes minutes to hours with the
 * table's size. In the sandbox, whose DynamoDB Local keeps no history: a new table made like the
 * source (its keys, gsi1 and its projection, billing), then a copy of the items as they are now.
 *
 * A restore only ever creates its table (lib/admin/restore-target.ts decides): an existing one is
 * refused and left as it is, items and settings, unless it carries the mark this command leaves in a
 * table it made, as soon as DynamoDB takes writes there (at once in the sandbox; in AWS when the
 * restored table is ACTIVE). Only a marked, unfinished restore is resumed: the copy made again, or
 * the restore waited for, and the settings not yet made.
 *
 * Either way the new table then gets what a restore does not bring along
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableToPointInTime.html:
 * "You must manually set up … stream settings, Time to Live (TTL) settings, point in time recovery
 * settings"): the stream, TTL, point-in-time recovery and deletion protection. The stream comes last
 * and starts empty, as on a restored table: no consumer ever sees the copied items as new writes (the
 * webhook fan-out would deliver every idea again).
 */
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  RestoreTableToPointInTimeCommand,
  type TableDescription,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../platform/data/backoff.ts';
import { keys } from '../platform/data/keys.ts';
import { TABLE } from '../platform/data/table.ts';
import { type ExistingTable, type RestoreMark, restoreTargetVerdict, sandboxNameProblem, tableNameProblem } from './restore-target.ts';
import { AdminError, type TableClient } from './table-client.ts';
import { putItems, tableItems } from './table-io.ts';

export interface RestoreResult {
  table: string;
  streamArn: string;
  /** Items copied (the sandbox); null for a point-in-time restore. */
  copied: number | null;
  ms: number;
}

async function describe(client: DynamoDBClient, table: string): Promise<TableDescription | null> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: table }))).Table ?? null;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return null;
    throw error;
  }
}

/** Waits until `table` is ACTIVE, looking every 2 s and saying so every half minute (a large restore takes hours). */
async function untilActive(client: DynamoDBClient, table: string, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  let said = started;
  for (;;) {
    const status = (await describe(client, table))?.TableStatus;
    if (status === 'ACTIVE') return;
    if (Date.now() - said >= 30_000) {
      log(`  ${table} is ${status ?? 'not there yet'} after ${Math.round((Date.now() - started) / 1000)} s…`);
      said = Date.now();
    }
    await sleep(2000);
  }
}

const existingOf = (table: TableDescription): ExistingTable => ({
  createdAt: (table.CreationDateTime ?? new Date(0)).toISOString(),
  streamEnabled: table.StreamSpecification?.StreamEnabled === true,
  ...(table.TableId ? { tableId: table.TableId } : {}),
  ...(table.RestoreSummary?.SourceTableArn ? { restoredFromArn: table.RestoreSummary.SourceTableArn } : {}),
});

/**
 * The mark in `table`, or null: none, not readable yet (a table being restored takes no reads), or a
 * table keyed otherwise than ours (which no restore of ours made; a GetItem there would be refused).
 */
async function readMark(store: TableClient, table: TableDescription): Promise<RestoreMark | null> {
  const keyNames = (table.KeySchema ?? []).map((key) => `${key.KeyType}:${key.AttributeName}`).join();
  if (table.TableStatus !== 'ACTIVE' || keyNames !== `HASH:${TABLE.partitionKey},RANGE:${TABLE.sortKey}`) return null;
  const { Item } = await store.db.send(new GetCommand({ TableName: table.TableName, Key: keys.restoreMark(), ConsistentRead: true }));
  return Item ? (Item as unknown as RestoreMark) : null;
}

async function writeMark(store: TableClient, table: TableDescription): Promise<void> {
  const mark: RestoreMark = {
    restoreOf: store.table,
    tableCreatedAt: existingOf(table).createdAt,
    startedAt: new Date().toISOString(),
  };
  await store.db.send(new PutCommand({ TableName: table.TableName, Item: { ...keys.restoreMark(), entity: 'RestoreMark', ...mark } }));
}

/** What a restore leaves off, made again; what is there already is kept. The stream ARN. */
async function prepare(client: DynamoDBClient, table: string, log: (line: string) => void): Promise<string> {
  const ttl = await client
    .send(new UpdateTimeToLiveCommand({ TableName: table, TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true } }))
    .catch((error: Error) => {
      // Already on (from an earlier run): DynamoDB refuses to set it again.
      if (!/already enabled/i.test(error.message)) throw error;
    });
  if (ttl) log(`  time to live on attribute ${TABLE.ttlAttribute}`);
  try {
    await client.send(
      new UpdateContinuousBackupsCommand({ TableName: table, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
    );
    log('  point-in-time recovery on');
  } catch (error) {
    if ((error as { name?: string }).name !== 'UnknownOperationException') throw error;
    log('  point-in-time recovery: DynamoDB Local has none');
  }
  let described = await describe(client, table);
  if (!described?.DeletionProtectionEnabled) {
    await client.send(new UpdateTableCommand({ TableName: table, DeletionProtectionEnabled: true }));
    await untilActive(client, table, log);
    log('  deletion protection on');
  }
  described = await describe(client, table);
  if (!described?.StreamSpecification?.StreamEnabled) {
    await client.send(
      new UpdateTableCommand({ TableName: table, StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }),
    );
    await untilActive(client, table, log);
    described = await describe(client, table);
    log('  stream on (NEW_AND_OLD_IMAGES), starting empty');
  }
  if (!described?.LatestStreamArn) throw new AdminError(`Table ${table} has no stream after turning it on`);
  return described.LatestStreamArn;
}

/**
 * The CreateTable request of a table made like `source`: its keys, indexes with their projections,
 * and billing, as a point-in-time restore brings them along; no stream (it comes last), no deletion
 * protection yet (set after the copy, as after a restore).
 */
function copyTableInput(source: TableDescription, name: string): CreateTableCommandInput {
  const provisioned = source.BillingModeSummary?.BillingMode !== 'PAY_PER_REQUEST';
  const throughput = (t: { ReadCapacityUnits?: number; WriteCapacityUnits?: number } | undefined) =>
    provisioned
      ? { ProvisionedThroughput: { ReadCapacityUnits: t?.ReadCapacityUnits ?? 1, WriteCapacityUnits: t?.WriteCapacityUnits ?? 1 } }
      : {};
  return {
    TableName: name,
    AttributeDefinitions: source.AttributeDefinitions,
    KeySchema: source.KeySchema,
    BillingMode: provisioned ? 'PROVISIONED' : 'PAY_PER_REQUEST',
    ...throughput(source.ProvisionedThroughput),
    ...(source.GlobalSecondaryIndexes?.length
      ? {
          GlobalSecondaryIndexes: source.GlobalSecondaryIndexes.map((index) => ({
            IndexName: index.IndexName,
            KeySchema: index.KeySchema,
            Projection: index.Projection,
            ...throughput(index.ProvisionedThroughput),
          })),
        }
      : {}),
    ...(source.LocalSecondaryIndexes?.length
      ? {
          LocalSecondaryIndexes: source.LocalSecondaryIndexes.map((index) => ({
            IndexName: index.IndexName,
            KeySchema: index.KeySchema,
            Projection: index.Projection,
          })),
        }
      : {}),
  };
}

/** The sandbox: a table made like the store's, marked, then its items copied (a resumed copy puts each again, as it is). */
async function copyTable(
  client: DynamoDBClient,
  store: TableClient,
  to: string,
  target: TableDescription | null,
  log: (line: string) => void,
): Promise<number> {
  if (!target) {
    const source = await describe(client, store.table);
    if (!source) throw new AdminError(`Table ${store.table} does not exist: nothing to restore`);
    const { TableDescription: created } = await client.send(new CreateTableCommand(copyTableInput(source, to)));
    await untilActive(client, to, log);
    await writeMark(store, created ?? (await describe(client, to))!);
  } else {
    log(`  ${to} is an unfinished restore of ${store.table} by this command: copying again (each item is put as it is)`);
  }
  const mark = keys.restoreMark();
  let copied = 0;
  for await (const page of tableItems(store)) {
    // The source's own mark, if it is a restored table too, says what the source is, not what the copy is.
    const items = page.filter((item) => item.pk !== mark.pk || item.sk !== mark.sk);
    await putItems(store, to, items);
    copied += items.length;
    log(`  ${copied} item(s) copied`);
  }
  return copied;
}

/** AWS: a point-in-time restore of the store's table (to `time`, or the latest restorable second), marked once ACTIVE. */
async function restoreToPointInTime(
  client: DynamoDBClient,
  store: TableClient,
  to: string,
  target: TableDescription | null,
  time: Date | undefined,
  log: (line: string) => void,
): Promise<void> {
  if (target) {
    log(`  ${to} is a restore of ${store.table} by this command: waiting for it`);
  } else {
    const { TableDescription: started } = await client.send(
      new RestoreTableToPointInTimeCommand({
        SourceTableName: store.table,
        TargetTableName: to,
        ...(time ? { RestoreDateTime: time } : { UseLatestRestorableTime: true }),
      }),
    );
    log(`  restoring ${store.table} as it was ${time ? `at ${time.toISOString()}` : 'at the latest restorable second'}…`);
    // Until the table is ACTIVE it takes no writes, so it cannot be marked yet.
    log(`  if this command stops before ${to} is ACTIVE, run it again with --resume ${started?.TableId ?? '<its TableId>'}`);
  }
  await untilActive(client, to, log);
  const described = (await describe(client, to))!;
  // A restore of a restored table brings the source's own mark along: this table's replaces it.
  if ((await readMark(store, described))?.tableCreatedAt !== existingOf(described).createdAt) await writeMark(store, described);
}

export async function restoreTable(
  client: DynamoDBClient,
  store: TableClient,
  options: { to: string; time?: string; resume?: string; sandbox: boolean; label?: string; log: (line: string) => void },
): Promise<RestoreResult> {
  const { to, log } = options;
  const nameProblem = tableNameProblem(to);
  if (nameProblem) throw new AdminError(nameProblem);
  if (to === store.table) throw new AdminError(`--to ${to} is the table being restored: name a new one`);
  const time = options.time === undefined ? undefined : new Date(options.time);
  if (time && Number.isNaN(time.getTime())) throw new AdminError(`Invalid --time "${options.time}": an ISO 8601 date-time`);
  if (time && options.sandbox) {
    throw new AdminError('DynamoDB Local keeps no history: the sandbox copies the table as it is now (leave out --time)');
  }
  if (options.sandbox) {
    const sandboxProblem = sandboxNameProblem(to, await tableNames(client));
    if (sandboxProblem) throw new AdminError(sandboxProblem);
  }
  const target = await describe(client, to);
  const verdict = restoreTargetVerdict({
    source: store.table,
    target: to,
    sourceArn: target ? (await describe(client, store.table))?.TableArn : undefined,
    existing: target && existingOf(target),
    mark: target && (await readMark(store, target)),
    resumeTableId: options.resume,
  });
  if (verdict.action === 'refuse') throw new AdminError(verdict.reason);
  log(`Restoring ${options.label ?? store.table} into ${to}`);
  const started = performance.now();
  const copied = options.sandbox ? await copyTable(client, store, to, target, log) : null;
  if (!options.sandbox) await restoreToPointInTime(client, store, to, target, time, log);
  const streamArn = await prepare(client, to, log);
  return { table: to, streamArn, copied, ms: Math.round(performance.now() - started) };
}

/** Every table of the endpoint. */
async function tableNames(client: DynamoDBClient): Promise<string[]> {
  const names: string[] = [];
  let ExclusiveStartTableName: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName }));
    names.push(...(page.TableNames ?? []));
    ExclusiveStartTableName = page.LastEvaluatedTableName;
  } while (ExclusiveStartTableName);
  return names;
}
