/**
 * Draft versions: content saves, labels, discards and branches. Every write is one transaction
 * conditional on the revision read and on the journey still being active; a failed condition hands
 * back the current item, which says which answer the client gets.
 */

import { tableName } from '../../platform/data/client.ts';
import { type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { type UpdateBuilder, update } from '../../platform/data/update.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { PairTarget } from '../cycles.ts';
import { journeyArchived, journeyNotFound, lastVersion, versionNotFound } from '../errors.ts';
import { bindingsAttribute, type ResolvedBinding } from '../metric-bindings.ts';
import { newJourneyId, pairsAttribute, pairsFromAttribute, toVersion, type VersionMetadata } from '../record.ts';
import type { JourneyVersion } from '../schemas.ts';
import { assertRevision, assertWritable, versionRefusal } from '../state-rules.ts';
import { readJourneyAndVersion, versionKey } from './items.ts';
import { getVersion, newVersionItem } from './versions.ts';

/** Maps a cancelled { journey check, version write } transaction to the answer the issue orders. */
function versionWriteFailure(error: unknown): Error {
  if (!(error instanceof TransactionCancelledError)) return error as Error;
  if (error.failed('journey')) return error.current('journey') ? journeyArchived() : journeyNotFound();
  return versionFailure(error) ?? error;
}

/** A failed condition on the version (named `version`), as the rules answer it; null when the version's condition held. */
export function versionFailure(error: TransactionCancelledError): Error | null {
  return error.failed('version') ? versionRefusal(error.current('version') ?? undefined) : null;
}

const journeyStillActive = (workspace: string, journeyId: string): TransactWrite => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.journey(workspace, journeyId),
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
  },
});

/** What a content save writes: the encoded content, its fresh diagnostics and pairs, at the revision read. */
export interface ContentWrite {
  encoded: { compressed: Uint8Array; rawBytes: number };
  diagnostics: { bytes: Uint8Array; rawBytes: number };
  pairs: readonly PairTarget[];
  /** The answer ranges of its bound metric cells, resolved from the surveys now (metric-bindings.ts). */
  bindings: readonly ResolvedBinding[];
  read: number;
  now: string;
}

/**
 * One transaction: `changes` to a draft version, only while it is unpublished and still at the
 * revision read (so of two saves with the same If-Match exactly one wins) and its journey is active.
 */
async function writeDraftVersion(workspace: string, journeyId: string, versionId: string, read: number, changes: UpdateBuilder) {
  try {
    await transact({
      journey: journeyStillActive(workspace, journeyId),
      version: {
        Update: {
          TableName: tableName,
          Key: versionKey(workspace, journeyId, versionId),
          ...changes.build({
            expression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt) AND #revision = :read',
            names: { '#revision': 'revision' },
            values: { ':read': read },
          }),
        },
      },
    });
  } catch (error) {
    throw versionWriteFailure(error);
  }
}

/** A content save: the content, its fresh diagnostics and pairs, and the next revision. */
export function writeContent(workspace: string, journeyId: string, versionId: string, write: ContentWrite): Promise<void> {
  const changes = update()
    .set('content', write.encoded.compressed)
    .set('contentBytes', write.encoded.rawBytes)
    .set('diagnostics', write.diagnostics.bytes)
    .set('diagnosticsBytes', write.diagnostics.rawBytes)
    .set('pairs', pairsAttribute(write.pairs))
    .set('bindings', bindingsAttribute(write.bindings))
    .increment('revision')
    .set('updatedAt', write.now);
  return writeDraftVersion(workspace, journeyId, versionId, write.read, changes);
}

/** PATCH label: one read (the version is returned whole), then the label, without touching `revision`. */
export async function relabelVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  label: string,
  precondition: VersionPrecondition,
): Promise<JourneyVersion> {
  const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, true);
  assertWritable(journey, version);
  const read = Number(version.revision);
  assertRevision(precondition, read, false);
  const now = new Date().toISOString();
  await writeDraftVersion(workspace, journeyId, versionId, read, update().set('label', label).set('updatedAt', now));
  return { ...toVersion(version), label, updatedAt: now };
}

/**
 * DELETE a draft: tried as one transaction straight away (version not published and at If-Match;
 * journey active with more than one version). Only when it is refused does one read tell why,
 * in the order.
 */
export async function discardVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<void> {
  const revision = versionCondition(precondition);
  try {
    await transact({
      version: {
        Delete: {
          TableName: tableName,
          Key: versionKey(workspace, journeyId, versionId),
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(publishedAt)${revision.expression.replace('#version', '#revision')}`,
          ...(revision.expression
            ? { ExpressionAttributeNames: { '#revision': 'revision' }, ExpressionAttributeValues: revision.values }
            : {}),
        },
      },
      journey: {
        Update: {
          TableName: tableName,
          Key: keys.journey(workspace, journeyId),
          ...update()
            .set('updatedAt', new Date().toISOString())
            .increment('version')
            .add('versionCount', -1)
            .build({
              expression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt) AND versionCount > :one',
              values: { ':one': 1 },
            }),
        },
      },
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, false);
    assertWritable(journey, version);
    assertRevision(precondition, Number(version.revision), false);
    if (Number(journey!.versionCount) <= 1) throw lastVersion();
    throw new ConflictError('version_conflict', 'The journey changed while deleting; try again');
  }
}

/**
 * POST versions: a new draft copied from any version of the journey (content and diagnostics as
 * they are), counted on the journey, in one transaction after one read of both. Under an
 * Idempotency-Key only the new id is remembered (a version can be far larger than the record may
 * hold); a replay reads the version again.
 */
export async function branchVersion(
  workspace: string,
  journeyId: string,
  fromVersionId: string,
  label: string | undefined,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: JourneyVersion; replayed: boolean }> {
  const { journey, version: source } = await readJourneyAndVersion(workspace, journeyId, fromVersionId, true);
  if (!journey) throw journeyNotFound();
  if (!source) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();

  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const metadata: VersionMetadata = {
    id: newJourneyId(nowMs),
    journeyId,
    label: label ?? `Draft ${Number(journey.versionCount) + 1}`,
    parentVersionId: fromVersionId,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    revision: 1,
    sourceRevision: Number(source.revision),
    legacyOrigin: null,
  };
  const item = newVersionItem(workspace, metadata, {
    content: source.content as Uint8Array,
    contentBytes: Number(source.contentBytes),
    diagnostics: source.diagnostics as Uint8Array,
    diagnosticsBytes: Number(source.diagnosticsBytes ?? 0),
    pairs: pairsFromAttribute(source.pairs),
  });
  // A branch draws its metrics as its source does until its first save resolves them afresh.
  if (typeof source.bindings === 'string') item.bindings = source.bindings;
  try {
    const { response, replayed } = await createOnce(
      workspace,
      {
        version: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        journey: {
          Update: {
            TableName: tableName,
            Key: keys.journey(workspace, journeyId),
            ...update()
              .set('updatedAt', now)
              .increment('version')
              .add('versionCount', 1)
              .build({ expression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)' }),
          },
        },
      },
      { versionId: metadata.id },
      idempotency,
    );
    if (replayed) return { version: await getVersion(workspace, journeyId, response.versionId), replayed };
    return { version: toVersion(item), replayed };
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('journey'))
      throw error.current('journey') ? journeyArchived() : journeyNotFound();
    throw error;
  }
}
