/**
 * `cxctl backup restore --to <table> [--time ISO]`: the table as it was, in a new table that a stack
 * (or the sandbox) can then be pointed at. docs/operating.md has the whole procedure.
 *
 * In AWS: a point-in-time restore (RestoreTableToPointInTime) to the given second or the latest
 * restorable one; it takes minutes to hours with the table's size. In the sandbox, whose DynamoDB
 * Local keeps no history: a copy of the table as it is now, item by item.
 *
 * Either way the new table then gets what a restore does not bring along
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableToPointInTime.html:
 * "You must manually set up … stream settings, Time to Live (TTL) settings, point in time recovery
 * settings"): the stream, TTL, point-in-time recovery and deletion protection. The stream comes last
 * and starts empty, as on a restored table: no consumer ever sees the copied items as new writes (the
 * webhook fan-out would deliver every idea again). Run again after an interruption, it goes on: an
 * existing target is waited for, or copied into again, and settings already made are kept.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  RestoreTableToPointInTimeCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { sleep } from '../platform/data/backoff.ts';
import { TABLE } from '../platform/data/table.ts';
import { AdminError, type TableClient } from './table-client.ts';
import { putItems, tableItems } from './table-io.ts';
import { createTableInput } from './table-layout.ts';

export interface RestoreResult {
  table: string;
  streamArn: string;
  /** Items copied (the sandbox); null for a point-in-time restore. */
  copied: number | null;
  ms: number;
}

const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

async function describe(client: DynamoDBClient, table: string) {
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

/** The sandbox: a copy of the store's table as it is now. */
async function copyTable(client: DynamoDBClient, store: TableClient, to: string, log: (line: string) => void): Promise<number> {
  const existing = await describe(client, to);
  if (existing?.StreamSpecification?.StreamEnabled) {
    throw new AdminError(`Table ${to} exists and was restored already (its stream is on): choose another name`);
  }
  if (!existing) {
    await client.send(new CreateTableCommand(createTableInput(to, { stream: false })));
    await untilActive(client, to, log);
  } else {
    log(`  ${to} exists without a stream: an earlier copy stopped, copying again (each item is put as it is)`);
  }
  let copied = 0;
  for await (const page of tableItems(store)) {
    await putItems(store, to, page);
    copied += page.length;
    log(`  ${copied} item(s) copied`);
  }
  return copied;
}

/** AWS: a point-in-time restore of the store's table (to `time`, or the latest restorable second). */
async function restoreToPointInTime(
  client: DynamoDBClient,
  store: TableClient,
  to: string,
  time: Date | undefined,
  log: (line: string) => void,
): Promise<void> {
  if (await describe(client, to)) {
    log(`  ${to} exists: waiting for the restore already started`);
  } else {
    await client.send(
      new RestoreTableToPointInTimeCommand({
        SourceTableName: store.table,
        TargetTableName: to,
        ...(time ? { RestoreDateTime: time } : { UseLatestRestorableTime: true }),
      }),
    );
    log(`  restoring ${store.table} as it was ${time ? `at ${time.toISOString()}` : 'at the latest restorable second'}…`);
  }
  await untilActive(client, to, log);
}

export async function restoreTable(
  client: DynamoDBClient,
  store: TableClient,
  options: { to: string; time?: string; sandbox: boolean; log: (line: string) => void },
): Promise<RestoreResult> {
  const { to, log } = options;
  if (!TABLE_NAME.test(to)) throw new AdminError(`Invalid table name "${to}": 3-255 of A-Z a-z 0-9 _ . -`);
  if (to === store.table) throw new AdminError(`--to ${to} is the table being restored: name a new one`);
  const time = options.time === undefined ? undefined : new Date(options.time);
  if (time && Number.isNaN(time.getTime())) throw new AdminError(`Invalid --time "${options.time}": an ISO 8601 date-time`);
  if (time && options.sandbox) {
    throw new AdminError('DynamoDB Local keeps no history: the sandbox copies the table as it is now (leave out --time)');
  }
  const started = performance.now();
  const copied = options.sandbox ? await copyTable(client, store, to, log) : null;
  if (!options.sandbox) await restoreToPointInTime(client, store, to, time, log);
  const streamArn = await prepare(client, to, log);
  return { table: to, streamArn, copied, ms: Math.round(performance.now() - started) };
}
