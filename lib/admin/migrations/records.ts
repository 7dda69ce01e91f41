/**
 * What a table has had of each layout migration: one item per migration at `pk = TABLE#MIGRATIONS`,
 * `sk = <migration id>` (keys.ts `tableMigration`), outside every workspace's partition. The item
 * says when it started, how far it got (a checkpoint to resume from, and what it changed so far) and
 * when it finished; a finished one is never run again. Handlers read `finishedAt` to stop reading the
 * old layout (lib/platform/data/layout-migration.ts).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../platform/data/keys.ts';
import type { TableClient } from '../table-client.ts';
import { queryPages } from '../table-io.ts';

const RECORD_ENTITY = 'TableMigration';

/** What a migration changed, by kind of item ("responses moved": 1200). */
export type MigrationCounts = Record<string, number>;

export interface MigrationRecord {
  id: string;
  title: string;
  startedAt: string;
  updatedAt: string;
  /** Set once every item is migrated: then the migration is never run again. */
  finishedAt?: string;
  /** Where an interrupted run resumes (a migration's own value, e.g. the Scan's LastEvaluatedKey). */
  checkpoint?: Record<string, unknown>;
  counts: MigrationCounts;
  /** Why it had nothing to do, when that is so (a table created with this layout). */
  note?: string;
}

export async function readRecords(store: TableClient): Promise<Map<string, MigrationRecord>> {
  const records = new Map<string, MigrationRecord>();
  const pages = queryPages(store, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.tableMigrationsPk },
    ConsistentRead: true,
  });
  for await (const items of pages) {
    for (const item of items) records.set(item.id as string, item as MigrationRecord);
  }
  return records;
}

export async function writeRecord(store: TableClient, record: MigrationRecord): Promise<void> {
  await store.db.send(
    new PutCommand({ TableName: store.table, Item: { ...keys.tableMigration(record.id), entity: RECORD_ENTITY, ...record } }),
  );
}
