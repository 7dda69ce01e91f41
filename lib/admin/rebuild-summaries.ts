/**
 * `cxctl rebuild summaries --workspace <slug> [--survey <id>] | --all`: a survey's day buckets made
 * to match its stored responses, with the aggregator the stream runs (lib/surveys/summary/), for
 * what the stream did not deliver: a batch that exhausted the aggregator's retries (it went to the
 * fan-out's failure queue and its responses stayed uncounted), or a table restored at a moment the
 * aggregator had not caught up with.
 *
 * Two passes per survey, both through `aggregateResponseRecords` and its per-response markers, so
 * whatever is counted already is left alone and running it again changes nothing:
 *   1. every stored response, replayed as the stream record of its current state;
 *   2. every marker that counts a response no longer stored, replayed as that response's removal
 *      (its removal record was the one lost).
 * Then, unless the run was resumed half-way, the buckets are compared with a recount of what
 * pass 1 read. Progress is saved after each page (lib/admin/jobs.ts): an interrupted run goes on
 * from the page it was at. It runs beside the live aggregator safely (the markers' conditional
 * writes decide who counts a response); responses written meanwhile can make the comparison differ.
 *
 * Loads the aggregator, which reads TABLE_NAME when loaded: import this module only once
 * `areaEnvironment(target)` is in process.env.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { getMany } from '../platform/data/batch.ts';
import { dynamo, tableName } from '../platform/data/client.ts';
import { keys } from '../platform/data/keys.ts';
import { surveyEntity } from '../surveys/entities.ts';
import { surveyResponseEntity } from '../surveys/responses/entities.ts';
import { findVersion } from '../surveys/store/versions.ts';
import { aggregateResponseRecords } from '../surveys/summary/aggregator.ts';
import { type Catalog, catalogOf } from '../surveys/summary/catalog.ts';
import { addCounts, type Counts, contributionOf } from '../surveys/summary/counts.ts';
import { countedMarkerEntity } from '../surveys/summary/entities.ts';
import { ALL_DAYS, readDayBuckets } from '../surveys/summary/store/buckets.ts';
import { type ResponseRecord, responseRecordOf } from '../surveys/summary/stream-records.ts';
import { openJob } from './jobs.ts';
import { AdminError, type TableClient } from './table-client.ts';

type Item = Record<string, unknown>;
type PageKey = Record<string, unknown>;

export interface SummaryRebuild {
  surveyId: string;
  responses: number;
  /** Removals replayed for markers whose response is gone. */
  removals: number;
  /** Transactions the aggregator committed: 0 when everything was counted already. */
  transactions: number;
  /** Whether the buckets equal a recount of the responses read; null after a resumed run. */
  matchesRecount: boolean | null;
  /** Counters that differ from the recount. */
  differences: number;
}

interface Progress {
  surveyId: string;
  phase: 'responses' | 'markers';
  startKey: PageKey | null;
}

async function* pages(
  prefix: string,
  workspace: string,
  startKey: PageKey | null,
): AsyncGenerator<{ items: Item[]; next: PageKey | null }> {
  let ExclusiveStartKey = startKey ?? undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': prefix },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    ExclusiveStartKey = page.LastEvaluatedKey;
    yield { items: page.Items ?? [], next: ExclusiveStartKey ?? null };
  } while (ExclusiveStartKey);
}

/** A stored item as the table stream would carry it (what the aggregator's reader takes). */
function asStreamRecord(item: Item, eventName: 'MODIFY' | 'REMOVE'): DynamoDBRecord {
  const image = marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as never;
  return { eventName, dynamodb: eventName === 'REMOVE' ? { OldImage: image } : { NewImage: image } };
}

/** Every survey of a workspace, archived ones included (their responses count in their summaries too). */
async function surveysOf(workspace: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const { items } of pages(surveyEntity.keys.list.from, workspace, null))
    for (const item of items) if (item.entity === 'Survey') ids.push(item.id as string);
  return ids;
}

class Recount {
  private readonly buckets = new Map<string, Counts>();
  private readonly catalogs = new Map<string, Promise<Catalog>>();
  constructor(
    private readonly workspace: string,
    private readonly surveyId: string,
  ) {}

  async add(record: ResponseRecord): Promise<void> {
    if (!record.response) return;
    let catalog = this.catalogs.get(record.versionId);
    if (!catalog) {
      catalog = findVersion(this.workspace, this.surveyId, record.versionId).then((v) => (v ? catalogOf(v.definition) : {}));
      this.catalogs.set(record.versionId, catalog);
    }
    const id = `${record.day}#${record.versionId}`;
    this.buckets.set(id, addCounts(this.buckets.get(id) ?? {}, contributionOf(record.response, await catalog)));
  }

  /** Counters that differ between the stored buckets and this recount. */
  async differences(): Promise<number> {
    // A day's counts may be kept in several bucket items (one per aggregator shard): summed, as the summary reads them.
    const stored = new Map<string, Counts>();
    for (const b of await readDayBuckets(this.workspace, this.surveyId, ALL_DAYS.from, ALL_DAYS.to)) {
      const id = `${b.day}#${b.versionId}`;
      stored.set(id, addCounts(stored.get(id) ?? {}, b.counts));
    }
    let differing = 0;
    for (const id of new Set([...stored.keys(), ...this.buckets.keys()])) {
      const a = stored.get(id) ?? {};
      const b = this.buckets.get(id) ?? {};
      for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) if ((a[name] ?? 0) !== (b[name] ?? 0)) differing += 1;
    }
    return differing;
  }
}

async function rebuildSurvey(
  workspace: string,
  surveyId: string,
  from: Progress | null,
  save: (progress: Progress) => Promise<void>,
  log: (line: string) => void,
): Promise<SummaryRebuild> {
  const result: SummaryRebuild = { surveyId, responses: 0, removals: 0, transactions: 0, matchesRecount: null, differences: 0 };
  const recount = from ? null : new Recount(workspace, surveyId);

  if (!from || from.phase === 'responses') {
    for await (const { items, next } of pages(surveyResponseEntity.keys.prefix(surveyId), workspace, from?.startKey ?? null)) {
      const records = items
        .filter((item) => item.entity === surveyResponseEntity.name)
        .map((item) => responseRecordOf(asStreamRecord(item, 'MODIFY')))
        .filter((record): record is ResponseRecord => record !== null);
      if (records.length > 0) result.transactions += (await aggregateResponseRecords(records)).transactions;
      for (const record of records) await recount?.add(record);
      result.responses += records.length;
      log(`  survey ${surveyId}: ${result.responses} response(s) replayed`);
      await save({ surveyId, phase: next ? 'responses' : 'markers', startKey: next });
    }
  }

  // Both marker layouts: keyed by a hash of the response id, and the legacy `…#<responseId>` (migration 002).
  const markerPrefix = countedMarkerEntity.keys.prefix(surveyId);
  for await (const { items, next } of pages(markerPrefix, workspace, from?.phase === 'markers' ? from.startKey : null)) {
    const counted = items.filter((item) => item.removed !== true);
    const stored = await getMany(
      counted.map((marker) => surveyResponseEntity.keys.response(workspace, surveyId, marker.responseId as string)),
      { consistent: true, attributes: ['id'] },
    );
    const lost = counted.filter((_, i) => !stored[i]);
    const removals = lost
      .map((marker) =>
        responseRecordOf(
          asStreamRecord(
            {
              entity: surveyResponseEntity.name,
              workspace,
              surveyId,
              id: marker.responseId,
              versionId: marker.versionId,
              revision: marker.revision,
              createdAt: `${marker.day as string}T00:00:00.000Z`,
            },
            'REMOVE',
          ),
        ),
      )
      .filter((record): record is ResponseRecord => record !== null);
    if (removals.length > 0) result.transactions += (await aggregateResponseRecords(removals)).transactions;
    result.removals += removals.length;
    if (next) await save({ surveyId, phase: 'markers', startKey: next });
  }
  if (result.removals > 0) log(`  survey ${surveyId}: ${result.removals} removal(s) replayed for responses no longer stored`);

  if (recount) {
    result.differences = await recount.differences();
    result.matchesRecount = result.differences === 0;
  }
  return result;
}

/**
 * Rebuilds the summaries of `surveyIds` (default: every survey of the workspace), going on from
 * where an interrupted run of the same workspace stopped.
 */
export async function rebuildSummaries(
  store: TableClient,
  workspace: string,
  options: { surveyIds?: readonly string[]; restart?: boolean; log: (line: string) => void },
): Promise<SummaryRebuild[]> {
  for (const surveyId of options.surveyIds ?? []) {
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: surveyEntity.keys.survey(workspace, surveyId), ConsistentRead: true }),
    );
    if (!Item) throw new AdminError(`Workspace "${workspace}" has no survey ${surveyId}`);
  }
  const job = await openJob<Progress>(store, `rebuild-summaries#${workspace}`, { restart: options.restart });
  const surveys = options.surveyIds ? [...options.surveyIds].sort() : await surveysOf(workspace);
  const resumedAt = job.resumed?.state;
  if (resumedAt) {
    options.log(`Going on at survey ${resumedAt.surveyId} (a run started ${job.resumed?.startedAt} got that far; --restart starts over)`);
  }
  const results: SummaryRebuild[] = [];
  for (const surveyId of surveys) {
    if (resumedAt && surveyId < resumedAt.surveyId) continue;
    const from = resumedAt?.surveyId === surveyId ? resumedAt : null;
    results.push(await rebuildSurvey(workspace, surveyId, from, (progress) => job.save(progress), options.log));
  }
  await job.complete();
  return results;
}

export function describeSummaryRebuild(workspace: string, rebuilt: SummaryRebuild): string {
  const check =
    rebuilt.matchesRecount === null
      ? 'resumed: not compared with a recount'
      : rebuilt.matchesRecount
        ? 'equal to a recount of its responses'
        : `${rebuilt.differences} counter(s) differ from a recount (responses written during the rebuild?)`;
  return (
    `${workspace} survey ${rebuilt.surveyId}: ${rebuilt.responses} response(s), ${rebuilt.removals} removal(s) replayed, ` +
    `${rebuilt.transactions} bucket transaction(s); ${check}`
  );
}

/** Every workspace's summaries, going on after the last workspace an interrupted run finished. */
export async function rebuildAllSummaries(
  store: TableClient,
  workspaces: readonly string[],
  options: { restart?: boolean; log: (line: string) => void },
): Promise<{ workspace: string; surveys: SummaryRebuild[] }[]> {
  const job = await openJob<{ after: string }>(store, 'rebuild-summaries', { restart: options.restart });
  const after = job.resumed?.state.after;
  if (after) options.log(`Going on after ${after} (a run started ${job.resumed?.startedAt} got that far; --restart starts over)`);
  const done: { workspace: string; surveys: SummaryRebuild[] }[] = [];
  for (const workspace of workspaces) {
    if (after && workspace <= after) continue;
    const surveys = await rebuildSummaries(store, workspace, { restart: options.restart, log: options.log });
    for (const survey of surveys) options.log(describeSummaryRebuild(workspace, survey));
    done.push({ workspace, surveys });
    await job.save({ after: workspace });
  }
  await job.complete();
  return done;
}
