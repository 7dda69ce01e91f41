/**
 * Access patterns of ideas. Every call stays inside the workspace's partition (entities.ts), so an
 * id of another workspace is simply not found. An idea shows its vote counts, the sums of its shards
 * (store/vote-counts.ts), read beside it:
 *   create  TransactWrite: idea + counter + its two ranks + its submitter's index items (+ idempotency record)
 *   get     GetItem (consistent, public attributes only) beside the Query of its shards
 *   list    by creation: Query, the counter and the page in one range (newest first; oldest first reads
 *           the counter beside it), then one Query of the page's shards; by votes or trending: the
 *           ranks' index (store/ranks.ts) beside the counter, then the page's ideas (BatchGetItem)
 *           beside one Query of shards per idea
 *   update  UpdateItem, conditional on existence and the If-Match version; no read first
 *   delete  TransactWrite: idea (conditional: in no merge) + counter + ranks
 * A failed condition returns the current item (ReturnValuesOnConditionCheckFailure), which tells
 * 404 from 409 without another read.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { ifMatchCondition, type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce } from '../../platform/data/idempotency.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { type CountedList, counted, walkCountedList } from '../../platform/data/list-walk.ts';
import { projection, projectionWith } from '../../platform/data/projection.ts';
import { counterAdd, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { ideaCounterEntity, ideaEntity, PUBLIC_IDEA_ATTRIBUTES } from '../entities.ts';
import { ideaConditionFailure, ideaHasMergedIdeas, ideaMerged, mergeInProgress } from '../errors.ts';
import {
  EDITABLE_IDEA_FIELDS,
  type EditableIdeaField,
  NO_VOTES,
  newIdeaId,
  type StoredSubmitter,
  storedFields,
  submitterHashOf,
  toIdea,
  writtenFields,
} from '../record.ts';
import type { Idea, IdeaSort, IdeaWrite } from '../schemas.ts';
import type { VoteCounts } from '../vote-count.ts';
import { submitterIndexWrites } from './people.ts';
import { listRanked, newRankWrites, rankDeletes } from './ranks.ts';
import { readVoteCounts, readVoteCountsBetween, readVoteCountsOf } from './vote-counts.ts';

const { idea: ideaKey, list: ideaList } = ideaEntity.keys;
const counterKey = ideaCounterEntity.keys.counter;

/** The operation an Idempotency-Key of `POST /ideas` is remembered under. */
const IDEA_CREATE_SCOPE = 'POST /ideas';

const publicProjection = projection(PUBLIC_IDEA_ATTRIBUTES);

export interface CreateIdeaOptions {
  /** The Developer key that creates it (kept for the audit trail). */
  keyId: string;
  /** Remember the response under this key; `fingerprint` identifies the request body. */
  idempotency?: { key: string; fingerprint: string };
  /** The submitter's references (lib/ideas/people.ts), by which the erasure of a person finds the idea. */
  submitterRefs?: readonly string[];
  /**
   * What else the first answer says, remembered with the idea under its Idempotency-Key so that a
   * retry gets that answer whole (the possible duplicates as they were first found).
   */
  rememberedWith?: Record<string, unknown>;
}

/** A create's answer as it is remembered under its Idempotency-Key: the idea and what the answer said beside it. */
export type RememberedIdeaCreate = { idea: Idea } & Record<string, unknown>;

/**
 * Create an idea (private, pending moderation, version 1) and count it, atomically. With an
 * idempotency key the response is remembered in the same transaction (lib/platform/data/idempotency.ts):
 * a retry with the same body gets it back (`replayed`), a different body is a 409 `idempotency_key_reused`.
 */
export async function writeNewIdea(
  workspace: string,
  write: IdeaWrite,
  options: CreateIdeaOptions,
): Promise<{ created: RememberedIdeaCreate; replayed: boolean }> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const id = newIdeaId(nowMs);
  const idea: Idea = {
    id,
    ...writtenFields(write),
    moderationStatus: 'pending',
    visibility: 'private',
    priority: null,
    ...NO_VOTES,
    importance: { ...NO_VOTES.importance },
    mergedInto: null,
    mergedFrom: [],
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const item = {
    ...ideaKey(workspace, id),
    entity: ideaEntity.name,
    workspace,
    id,
    ...storedFields(idea),
    moderationStatus: idea.moderationStatus,
    visibility: idea.visibility,
    version: idea.version,
    createdAt: now,
    updatedAt: now,
    submitter: write.submitter,
    submitterHash: submitterHashOf(workspace, write.submitter),
    ...((options.submitterRefs ?? []).length > 0 ? { submitterRefs: new Set(options.submitterRefs) } : {}),
    // A JSON string, not a map: any JSON object stores as given (empty keys, deep nesting).
    customerContext: write.customerContext && JSON.stringify(write.customerContext),
    createdByKeyId: options.keyId,
    updatedByKeyId: options.keyId,
  };

  const { idempotency } = options;
  const { response, replayed } = await createOnce(
    workspace,
    {
      idea: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      // Transactions that touch the workspace's idea counter can collide; `transact` retries those.
      counter: counterAdd(counterKey(workspace), 'ideaCount', 1, { entity: ideaCounterEntity.name }),
      ...newRankWrites(workspace, id),
      ...submitterIndexWrites(workspace, id, options.submitterRefs ?? []),
    },
    { ...options.rememberedWith, idea },
    idempotency && { ...idempotency, scope: IDEA_CREATE_SCOPE },
  );
  return { created: response, replayed };
}

/** Read one idea with its counts (strongly consistent; public attributes only), or null. */
export async function findIdea(workspace: string, id: string): Promise<Idea | null> {
  const [{ Item }, counts] = await Promise.all([
    dynamo.send(new GetCommand({ TableName: tableName, Key: ideaKey(workspace, id), ConsistentRead: true, ...publicProjection })),
    readVoteCounts(workspace, id),
  ]);
  return Item ? toIdea(Item, counts) : null;
}

export interface IdeaPage {
  ideas: Idea[];
  total: number;
  hasMore: boolean;
  /** The key of the page's last idea, where a cursor continues (lib/platform/pagination.ts). */
  lastKey: PageKey | undefined;
  returned: number;
}

export interface ListOrder {
  sort: IdeaSort;
  includeMerged: boolean;
}

/**
 * One page of ideas in the order asked, each with its counts, and the total of the ideas listed (every
 * idea, less those merged into others unless they are included: the counter keeps both counts).
 */
export async function readIdeaPage(workspace: string, page: PageStart, order: ListOrder): Promise<IdeaPage> {
  if (order.sort === '-createdAt' || order.sort === 'createdAt') {
    const { items, ...rest } = await walkCountedList(ideaRange(workspace, order), page);
    const first = items[0]?.id as string | undefined;
    const last = items.at(-1)?.id as string | undefined;
    const counts =
      first && last ? await readVoteCountsBetween(workspace, first < last ? first : last, first < last ? last : first) : new Map();
    return { ideas: items.map((item) => toIdea(item, counts.get(item.id as string))), ...rest };
  }
  const [ranked, counter] = await Promise.all([
    listRanked(
      workspace,
      order.sort === 'trending' ? 'TREND' : 'VOTES',
      { descending: order.sort !== 'votes', includeMerged: order.includeMerged },
      page,
    ),
    readCounter(workspace),
  ]);
  const [items, counts] = await Promise.all([
    getMany(
      ranked.ideaIds.map((id) => ideaKey(workspace, id)),
      { attributes: PUBLIC_IDEA_ATTRIBUTES },
    ),
    readVoteCountsOf(workspace, ranked.ideaIds),
  ]);
  // An idea deleted since the index was read is left out of the page.
  const ideas = items.flatMap((item) => (item ? [toIdea(item, counts.get(item.id as string))] : []));
  return { ideas, total: totalOf(counter, order.includeMerged), hasMore: ranked.hasMore, lastKey: ranked.lastKey, returned: ideas.length };
}

const totalOf = (counter: Record<string, unknown> | undefined, includeMerged: boolean) => {
  const count = (name: string) => Math.max(0, (counter?.[name] as number | undefined) ?? 0);
  return Math.max(0, count('ideaCount') - (includeMerged ? 0 : count('mergedCount')));
};

async function readCounter(workspace: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: counterKey(workspace),
      ConsistentRead: true,
      ProjectionExpression: 'ideaCount, mergedCount',
    }),
  );
  return Item;
}

/**
 * The range of a workspace's ideas, public attributes only: newest first with their counter first in
 * the same Query; oldest first without it (it sorts after every idea: read beside the page); the ideas
 * merged into others filtered out unless included.
 */
function ideaRange(workspace: string, order: ListOrder): CountedList {
  const counter = counterKey(workspace);
  const newestFirst = order.sort === '-createdAt';
  const mergedOut = order.includeMerged ? {} : { FilterExpression: 'attribute_not_exists(mergedInto)' };
  const fields = projectionWith(PUBLIC_IDEA_ATTRIBUTES, ['sk', 'ideaCount', 'mergedCount']);
  return {
    query: {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      // Oldest first stops before the counter ('#~' sorts below '$COUNTER').
      ExpressionAttributeValues: {
        ':pk': workspacePk(workspace),
        ':from': ideaList.from,
        ':to': newestFirst ? ideaList.to : `${ideaList.from}~`,
      },
      ...fields,
      ...mergedOut,
      ScanIndexForward: !newestFirst,
      ConsistentRead: true,
    },
    countersApart: !newestFirst,
    isCounter: (item) => item.sk === counter.sk,
    totalOf: ([found]) => totalOf(found, order.includeMerged),
    readCounters: async () => counted(await readCounter(workspace)),
    cursorInRange: (after: PageKey) =>
      after.pk === workspacePk(workspace) && typeof after.sk === 'string' && after.sk.startsWith(ideaList.from),
    keyOf: (item) => ({ pk: workspacePk(workspace), sk: item.sk as string }),
  };
}

export interface IdeaChanges {
  /** Editable fields to write; `null` removes one. Fields not named are left as they are. */
  fields: Partial<Record<EditableIdeaField, string | null>>;
  /** When given, replaces the stored submitter (and its hash, and its references: `submitterRefs`). */
  submitter?: StoredSubmitter;
  submitterRefs?: readonly string[];
  customerContext?: Record<string, unknown>;
  /** With a status written: how many had voted, for `idea.status_changed` (lib/ideas/stream.ts). */
  statusVoterCount?: number;
}

/**
 * Apply `changes` in one conditional UpdateItem (no read first): the idea must exist and, with
 * If-Match, be at one of the named versions. Bumps the version. Returns the idea as now stored.
 */
export async function writeIdeaChanges(
  workspace: string,
  id: string,
  changes: IdeaChanges,
  precondition: VersionPrecondition,
  keyId: string,
  counts: VoteCounts,
): Promise<Idea> {
  // Only allow-listed names reach the expression, whatever keys the change object carries.
  const changed = update()
    .increment('version')
    .set('updatedAt', new Date().toISOString())
    .set('updatedByKeyId', keyId)
    .patch(changes.fields, EDITABLE_IDEA_FIELDS);
  if (changes.submitter) {
    const hash = submitterHashOf(workspace, changes.submitter);
    changed.set('submitter', changes.submitter);
    if (hash) changed.set('submitterHash', hash);
    else changed.remove('submitterHash');
    const refs = changes.submitterRefs ?? [];
    if (refs.length > 0) changed.set('submitterRefs', new Set(refs));
    else changed.remove('submitterRefs');
  }
  if (changes.statusVoterCount !== undefined) changed.set('statusVoterCount', changes.statusVoterCount);
  if (changes.customerContext) changed.set('customerContext', JSON.stringify(changes.customerContext));

  const version = versionCondition(precondition);
  const [{ written, refused }] = await Promise.all([
    updateItem({
      TableName: tableName,
      Key: ideaKey(workspace, id),
      ...changed.build({ expression: `attribute_exists(pk)${version.expression}`, names: version.names, values: version.values }),
    }),
    // A new submitter's index items, beside the write: one left by a write that failed names no one the
    // idea holds, which the erasure checks (store/people.ts), so it is never more than a stale pointer.
    changes.submitter &&
      (changes.submitterRefs ?? []).length > 0 &&
      transact(submitterIndexWrites(workspace, id, changes.submitterRefs ?? [])),
  ]);
  if (!written) throw ideaConditionFailure(refused.current);
  return toIdea(written, counts);
}

/**
 * Delete an idea (existing, in no merge and, with If-Match, at a named version), uncount it and drop
 * its ranks, atomically. Its votes, shards and comments go after, on the table stream
 * (commands/fold-idea-changes.ts): an idea may have more of them than a transaction holds.
 */
export async function deleteIdea(workspace: string, id: string, precondition: VersionPrecondition): Promise<void> {
  const ranks = rankDeletes(workspace, id);
  try {
    await transact({
      idea: {
        Delete: {
          TableName: tableName,
          Key: ideaKey(workspace, id),
          ...ifMatchCondition(
            'attribute_exists(pk) AND attribute_not_exists(mergedInto) AND attribute_not_exists(mergedFrom)',
            precondition,
          ),
        },
      },
      counter: counterAdd(counterKey(workspace), 'ideaCount', -1),
      ...ranks,
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('rankVOTES')) throw mergeInProgress();
    if (!error.failed('idea')) throw error;
    const current = error.current('idea') ?? undefined;
    if (current?.mergedInto) throw ideaMerged(String(current.mergedInto));
    if (current?.mergedFrom) throw ideaHasMergedIdeas();
    throw ideaConditionFailure(current);
  }
}
