/**
 * Draft versions: content saves, labels, discards and branches (their commands in ../commands/ read
 * and decide). Every write is one transaction conditional on the revision read and on the journey
 * still being active; a failed condition hands back the current item, which says which answer the
 * client gets, or (a discard) says only that it was refused.
 */

import type { Item } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { ifMatchCondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { type UpdateBuilder, update } from '../../platform/data/update.ts';
import type { PairTarget } from '../cycles.ts';
import { journeyEntity, journeyVersionEntity } from '../entities.ts';
import { journeyArchived, journeyNotFound } from '../errors.ts';
import { bindingsAttribute, type ResolvedBinding } from '../metric-bindings.ts';
import { pairsAttribute } from '../record.ts';
import { versionRefusal } from '../state-rules.ts';

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
    Key: journeyEntity.keys.journey(workspace, journeyId),
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
          Key: journeyVersionEntity.keys.version(workspace, journeyId, versionId),
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

/** A new label, without touching `revision`, on the same conditions as a content save. */
export function writeLabel(
  workspace: string,
  journeyId: string,
  versionId: string,
  write: { label: string; read: number; now: string },
): Promise<void> {
  return writeDraftVersion(workspace, journeyId, versionId, write.read, update().set('label', write.label).set('updatedAt', write.now));
}

/**
 * DELETE a draft as one transaction: the version not published and at If-Match; the journey active
 * with more than one version. False when a condition refused it (the caller reads why).
 */
export async function deleteDraft(
  workspace: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<boolean> {
  try {
    await transact({
      version: {
        Delete: {
          TableName: tableName,
          Key: journeyVersionEntity.keys.version(workspace, journeyId, versionId),
          // A version's If-Match names its `revision`.
          ...ifMatchCondition('attribute_exists(pk) AND attribute_not_exists(publishedAt)', precondition, 'revision'),
        },
      },
      journey: {
        Update: {
          TableName: tableName,
          Key: journeyEntity.keys.journey(workspace, journeyId),
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
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelledError) return false;
    throw error;
  }
}

/**
 * A new draft version item, counted on its journey, in one transaction (only while the journey is
 * active). Under an Idempotency-Key only the new id is remembered (a version can be far larger than
 * the record may hold): `replayed` then names the version first created.
 */
export async function insertBranch(
  workspace: string,
  journeyId: string,
  item: Item,
  now: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: { versionId: string }; replayed: boolean }> {
  try {
    return await createOnce(
      workspace,
      {
        version: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        journey: {
          Update: {
            TableName: tableName,
            Key: journeyEntity.keys.journey(workspace, journeyId),
            ...update()
              .set('updatedAt', now)
              .increment('version')
              .add('versionCount', 1)
              .build({ expression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)' }),
          },
        },
      },
      { versionId: item.id as string },
      idempotency,
    );
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('journey'))
      throw error.current('journey') ? journeyArchived() : journeyNotFound();
    throw error;
  }
}
