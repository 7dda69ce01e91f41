/**
 * The table's migration records (`pk = TABLE#MIGRATIONS`, written by `cxctl migrate`) as the release
 * gate's custom resource reads them (functions/stack/release-gate.ts, release-gate.ts). A table with
 * nothing in it has nothing to migrate: its records are written finished on the spot.
 */
import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import {
  finishedOnNewTable,
  type MigrationRecordState,
  type RequiredMigration,
  releaseGateRefusal,
  unfinishedMigrations,
} from './release-gate.ts';

/**
 * The gate on the functions' table: throws the refusal when a required migration has not finished.
 * An empty table (one this deploy just made) gets the required records, finished.
 */
export async function checkReleaseGate(required: readonly RequiredMigration[], command: string): Promise<void> {
  const { Items: records = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.tableMigrationsPk },
      ConsistentRead: true,
    }),
  );
  const unfinished = unfinishedMigrations(records as MigrationRecordState[], required);
  if (unfinished.length === 0) return;
  if (records.length === 0) {
    const { Items: any = [] } = await dynamo.send(new ScanCommand({ TableName: tableName, Limit: 1, ProjectionExpression: 'pk' }));
    if (any.length === 0) {
      const now = new Date().toISOString();
      await Promise.all(
        required.map((migration) => dynamo.send(new PutCommand({ TableName: tableName, Item: finishedOnNewTable(migration, now) }))),
      );
      return;
    }
  }
  throw new Error(releaseGateRefusal(tableName, unfinished, command, 'deploy again (the release deployed now keeps serving meanwhile)'));
}
