/**
 * `cxctl workspace delete <slug> --confirm <slug>`: removes every item of a suspended workspace and
 * every object it has in the buckets, and stops its webhooks, in an order that survives being
 * interrupted at any point (run it again: it goes on from what is left).
 *
 *   1. refuse unless the workspace is suspended (or being deleted) and `--confirm` repeats its slug;
 *   2. mark it `deleting`: from then on the API refuses it (403, as suspended), the webhook fan-out
 *      queues nothing for it, and the stream consumers write nothing of it (search index, summaries),
 *      so the deletion's own stream records cannot write anything back;
 *   3. delete its webhooks first: a delivery still queued in SQS, or waiting for a retry, then finds
 *      no webhook (or no delivery record) and is dropped without a request to the receiver;
 *   4. delete every other item of its partition, `pk = WS#<slug>`, in key order, 25 per request,
 *      and its request budget's shards (`BUDGET#<slug>#<n>`, a partition each: every shard a budget
 *      can have is looked for, since the budget may have had more shards before it was lowered);
 *   5. delete its objects: `search-index/<slug>/…`, `survey-exports/<slug>/…`;
 *   6. look again after `settleSeconds`, for anything a consumer that started before step 2 wrote;
 *   7. delete the workspace item last, so an interrupted run leaves a workspace marked `deleting`
 *      that the next run recognises. Afterwards the slug can be created again, empty.
 *
 * Cost: one strongly consistent read per page of the partition (1 MB), one write unit per item
 * (BatchWriteItem bills each delete as a write), and a LIST plus a DELETE per 1,000 objects.
 * Everything a workspace owns lives under its partition key (lib/platform/data/keys.ts), gsi1 entries
 * included (they are attributes of those items), except what is spread over partitions of its own
 * (lib/platform/tenants/keys.ts): the budget's shards, found by key (10 BatchGetItem calls of 100
 * keys, about 500 read units, once), and its usage, kept on purpose for the last bill and removed by
 * its TTL (docs/operating.md, "Tenants").
 */
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { searchIndexPrefixOf } from '../knowledge-bank/search/object-keys.ts';
import { sleep } from '../platform/data/backoff.ts';
import { isConditionFailure } from '../platform/data/conditions.ts';
import { keys } from '../platform/data/keys.ts';
import { everyBudgetShardKey } from '../platform/tenants/keys.ts';
import { exportObjectPrefixOf } from '../surveys/exports/record.ts';
import { webhookEntity } from '../webhooks/entities.ts';
import { AdminError, type TableClient } from './table-client.ts';
import { deleteItems, existingKeys, workspacePartition } from './table-io.ts';

export interface DeletionReport {
  workspace: string;
  /** Whether this run found the workspace already marked (a run before it was interrupted). */
  resumed: boolean;
  webhooksStopped: number;
  /** Deliveries that were pending or waiting for a retry: dropped when their queue message comes up. */
  deliveriesDropped: number;
  /** Items removed, by kind (`entity`), the workspace item included. */
  items: Record<string, number>;
  objects: { searchIndex: number; surveyExports: number };
  /** Items or objects written after the main pass (by a consumer already running) and removed too. */
  stragglers: number;
}

export interface DeletionOptions {
  confirm: string | undefined;
  s3: S3Client;
  buckets: { searchIndex: string; surveyExports: string };
  /** How long to wait before the last look for stragglers. */
  settleSeconds: number;
  log: (line: string) => void;
}

const KEY_ATTRIBUTES = ['pk', 'sk', 'entity', 'status'];

/**
 * Step 1 and 2: the checks, then the mark. `resumed`: an earlier run had marked it; `leftovers`: its
 * workspace item is gone but items remain (written after an earlier run ended), to be removed too.
 */
async function markDeleting(store: TableClient, slug: string, confirm: string | undefined): Promise<'new' | 'resumed' | 'leftovers'> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.workspace(slug), ConsistentRead: true }));
  if (!Item) {
    const { value: page } = await workspacePartition(store, slug, { projection: ['sk'] }).next();
    if (!page || page.length === 0) throw new AdminError(`Workspace "${slug}" does not exist`);
    if (confirm !== slug) throw new AdminError(`Workspace "${slug}" is gone but items of it remain: remove them with --confirm ${slug}`);
    return 'leftovers';
  }
  if (Item.status === 'active') {
    throw new AdminError(`Workspace "${slug}" is active: suspend it first (cxctl workspace suspend ${slug}), then delete it`);
  }
  if (confirm !== slug) throw new AdminError(`Deleting "${slug}" removes all its data for good: repeat its slug with --confirm ${slug}`);
  if (Item.status === 'deleting') return 'resumed';
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.workspace(slug),
        // A new revision, so an operator's change read before this one (changeWorkspace, lib/admin/
        // workspaces.ts: conditional on the revision it read) fails, reads `deleting` and stops.
        UpdateExpression:
          'SET #status = :deleting, deletionStartedAt = :now, updatedAt = :now, revision = if_not_exists(revision, :zero) + :one',
        ConditionExpression: '#status = :suspended',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':deleting': 'deleting',
          ':suspended': 'suspended',
          ':now': new Date().toISOString(),
          ':zero': 0,
          ':one': 1,
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error))
      throw new AdminError(`Workspace "${slug}" changed while being checked (resumed?): run the command again`);
    throw error;
  }
  return 'new';
}

/**
 * Deletes, a page at a time, every item of the partition (those under `skPrefix` only, if given),
 * never the workspace item: memory stays at one page whatever the workspace's size. How many.
 */
async function deletePartition(
  store: TableClient,
  slug: string,
  report: DeletionReport,
  options: { skPrefix?: string; log?: DeletionOptions['log'] } = {},
): Promise<number> {
  const workspaceKey = keys.workspace(slug).sk;
  let deleted = 0;
  let logged = 0;
  for await (const page of workspacePartition(store, slug, { projection: KEY_ATTRIBUTES, skPrefix: options.skPrefix })) {
    const doomed = page.filter((item) => item.sk !== workspaceKey);
    report.deliveriesDropped += doomed.filter(
      (item) => item.entity === 'WebhookDelivery' && (item.status === 'pending' || item.status === 'retrying'),
    ).length;
    await deleteItems(store, doomed as { pk: string; sk: string }[]);
    for (const item of doomed) {
      const entity = String(item.entity ?? 'unknown');
      report.items[entity] = (report.items[entity] ?? 0) + 1;
    }
    deleted += doomed.length;
    if (options.log && deleted - logged >= 5000) {
      options.log(`  ${deleted} items deleted…`);
      logged = deleted;
    }
  }
  return deleted;
}

/** The budget's shard items (they hold only counts of recent windows); how many. */
async function deleteBudgetShards(store: TableClient, slug: string, report: DeletionReport): Promise<number> {
  const found = await existingKeys(store, everyBudgetShardKey(slug));
  await deleteItems(store, found);
  if (found.length > 0) report.items.WorkspaceBudgetShard = (report.items.WorkspaceBudgetShard ?? 0) + found.length;
  return found.length;
}

/** Deletes every object under `prefix`; how many. */
async function deletePrefix(s3: S3Client, bucket: string, prefix: string): Promise<number> {
  let deleted = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
    const objects = (page.Contents ?? []).flatMap(({ Key }) => (Key ? [{ Key }] : []));
    if (objects.length > 0) {
      const { Errors = [] } = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
      if (Errors.length > 0) throw new AdminError(`S3 kept ${Errors.length} objects under ${bucket}/${prefix}: ${Errors[0]?.Message}`);
      deleted += objects.length;
    }
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return deleted;
}

async function deleteObjects(slug: string, options: DeletionOptions): Promise<{ searchIndex: number; surveyExports: number }> {
  return {
    searchIndex: await deletePrefix(options.s3, options.buckets.searchIndex, searchIndexPrefixOf(slug)),
    surveyExports: await deletePrefix(options.s3, options.buckets.surveyExports, exportObjectPrefixOf(slug)),
  };
}

export async function deleteWorkspace(store: TableClient, slug: string, options: DeletionOptions): Promise<DeletionReport> {
  const { log } = options;
  const start = await markDeleting(store, slug, options.confirm);
  const resumed = start !== 'new';
  log(
    start === 'new'
      ? `Workspace ${slug} marked for deletion`
      : start === 'resumed'
        ? `Workspace ${slug} was being deleted: going on from what is left`
        : `Workspace ${slug} is gone, but items of it remain: removing them`,
  );
  const report: DeletionReport = {
    workspace: slug,
    resumed,
    webhooksStopped: 0,
    deliveriesDropped: 0,
    items: {},
    objects: { searchIndex: 0, surveyExports: 0 },
    stragglers: 0,
  };

  // Webhooks first (a small prefix of the partition): from here on no delivery reaches a receiver.
  report.webhooksStopped = await deletePartition(store, slug, report, { skPrefix: webhookEntity.keys.prefix });
  log(`Stopped ${report.webhooksStopped} webhook(s)`);
  const items = (await deletePartition(store, slug, report, { log })) + (await deleteBudgetShards(store, slug, report));
  log(`Deleted ${items + report.webhooksStopped} item(s); ${report.deliveriesDropped} queued delivery(ies) will be dropped`);
  report.objects = await deleteObjects(slug, options);
  log(`Deleted ${report.objects.searchIndex} search index object(s) and ${report.objects.surveyExports} export file(s)`);

  // A consumer invocation that began before the mark may still write: look once more after it had time to end.
  if (options.settleSeconds > 0) await sleep(options.settleSeconds * 1000);
  const lateItems = (await deletePartition(store, slug, report)) + (await deleteBudgetShards(store, slug, report));
  const lateObjects = await deleteObjects(slug, options);
  report.stragglers = lateItems + lateObjects.searchIndex + lateObjects.surveyExports;
  report.objects.searchIndex += lateObjects.searchIndex;
  report.objects.surveyExports += lateObjects.surveyExports;
  if (report.stragglers > 0) log(`Removed ${report.stragglers} item(s) or object(s) written while deleting`);

  if (start === 'leftovers') return report;
  await store.db.send(
    new DeleteCommand({
      TableName: store.table,
      Key: keys.workspace(slug),
      ConditionExpression: '#status = :deleting',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':deleting': 'deleting' },
    }),
  );
  report.items.Workspace = (report.items.Workspace ?? 0) + 1;
  return report;
}
