/**
 * gsi1 projects exactly the attributes the entities' declarations name (lib/entities.ts). DynamoDB cannot change an
 * index's projection in place: the index is deleted and created again, and DynamoDB backfills it
 * from the table (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.OnlineOps.html).
 *
 * In the sandbox (DynamoDB Local) or LocalStack the table is the operator's: this migration rebuilds
 * the index in place with UpdateTable. While it backfills, the lists that read gsi1 (the SOP and
 * journey lists, the survey-response change feed, `cxctl key revoke` by id) answer from an empty or
 * partial index for a moment. In AWS the index belongs to the CloudFormation stack, and a deploy whose
 * projection differs from the deployed one fails before any code changes; the operator changes it in
 * two deploys (docs/cxctl.md, "Index changes"), and this migration only confirms the table matches.
 */
import { DescribeTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { GSI1_NON_KEY_ATTRIBUTES } from '../../entities.ts';
import { TABLE } from '../../platform/data/table.ts';
import { AdminError, type TableClient } from '../table-client.ts';
import { add, type Migration, type MigrationContext } from './migration.ts';

const POLL_MS = 500;
const WAIT_MS = 10 * 60_000;

async function gsi1Of(store: TableClient) {
  const { Table } = await store.db.send(new DescribeTableCommand({ TableName: store.table }));
  return Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === TABLE.gsi1.name);
}

/** Attributes the index lacks and ones it has beyond the definition (both empty: it matches). */
async function projectionDifference(store: TableClient): Promise<{ missing: string[]; extra: string[]; absent: boolean }> {
  const index = await gsi1Of(store);
  if (!index) return { missing: [...GSI1_NON_KEY_ATTRIBUTES], extra: [], absent: true };
  const wanted = new Set<string>(GSI1_NON_KEY_ATTRIBUTES);
  const projection = index.Projection;
  if (projection?.ProjectionType === 'ALL') return { missing: [], extra: ['(every attribute)'], absent: false };
  const has = new Set(projection?.NonKeyAttributes ?? []);
  return { missing: [...wanted].filter((name) => !has.has(name)), extra: [...has].filter((name) => !wanted.has(name)), absent: false };
}

async function waitFor(store: TableClient, what: string, done: (index: Awaited<ReturnType<typeof gsi1Of>>) => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!done(await gsi1Of(store))) {
    if (Date.now() > deadline) throw new AdminError(`gsi1 is still not ${what} after ${WAIT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function rebuild(store: TableClient, absent: boolean): Promise<void> {
  if (!absent) {
    await store.db.send(
      new UpdateTableCommand({ TableName: store.table, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: TABLE.gsi1.name } }] }),
    );
    await waitFor(store, 'deleted', (index) => index === undefined);
  }
  await store.db.send(
    new UpdateTableCommand({
      TableName: store.table,
      AttributeDefinitions: [
        { AttributeName: TABLE.gsi1.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE.gsi1.sortKey, AttributeType: 'S' },
      ],
      GlobalSecondaryIndexUpdates: [
        {
          Create: {
            IndexName: TABLE.gsi1.name,
            KeySchema: [
              { AttributeName: TABLE.gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: TABLE.gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...GSI1_NON_KEY_ATTRIBUTES] },
          },
        },
      ],
    }),
  );
  await waitFor(store, 'active', (index) => index?.IndexStatus === 'ACTIVE' && index.Backfilling !== true);
}

export const gsi1Projection: Migration = {
  id: '001-gsi1-projection',
  title: 'gsi1 projects what lib/platform/data/table.ts names',
  changes: ['gsi1: deleted and created again with the projection the code defines, where it differs (sandbox and LocalStack only)'],
  async run(context: MigrationContext): Promise<boolean> {
    const { missing, extra, absent } = await projectionDifference(context.store);
    if (missing.length === 0 && extra.length === 0) {
      context.log('gsi1 already projects what the code defines');
      return true;
    }
    const difference = `${absent ? 'gsi1 is missing' : `gsi1 lacks [${missing.join(', ')}] and has [${extra.join(', ')}]`}`;
    if (context.dryRun) {
      context.log(`${difference}: would rebuild it`);
      add(context.counts, 'indexes to rebuild');
      return true;
    }
    if (!context.local) {
      throw new AdminError(
        `${difference}. In AWS the index belongs to the CloudFormation stack: deploy once without it, then again with it ` +
          '(docs/cxctl.md, "Index changes"), and run `cxctl migrate` again',
      );
    }
    context.log(`${difference}: rebuilding it (its lists read an empty or partial index until DynamoDB has backfilled it)`);
    await rebuild(context.store, absent);
    add(context.counts, 'indexes rebuilt');
    return true;
  },
};
