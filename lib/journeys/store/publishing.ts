/**
 * Publishing a version: fresh diagnostics, then one transaction that locks the version, points the
 * journey at it and moves the `pairedBy` sets of the journeys it pairs or no longer pairs.
 */

import { tableName } from '../../platform/data/client.ts';
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { ConflictError } from '../../platform/errors.ts';
import { decodeJson } from '../codec.ts';
import type { JourneyContent } from '../content.ts';
import { type Diagnostic, diagnoseContent, pairTargetsOf } from '../diagnostics.ts';
import { journeyArchived, journeyNotFound, versionNotFound } from '../errors.ts';
import { pairsAttribute, pairsFromAttribute, storedDiagnostics, toJourney, toVersion, toVersionMetadata } from '../record.ts';
import type { Journey, JourneyVersion } from '../schemas.ts';
import { assertRevision, versionFailure } from './drafts.ts';
import { readJourneyAndVersion, versionKey } from './items.ts';
import { distinctJourneys, startPairingAll, stopPairingAll } from './pairing.ts';
import { loadReferenceFacts } from './references.ts';

export type PublishOutcome = { ok: true; version: JourneyVersion; journey: Journey } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Publish: one read of the journey and the whole version, the reference levels, fresh diagnostics
 * (errors refuse it), then ONE transaction: the version gets `publishedAt` (if still at the
 * revision read), the journey points at it and keeps its pairs, and the `pairedBy` sets of the
 * journeys it newly pairs or no longer pairs change with it. Publishing a published version
 * changes nothing.
 */
export async function publishVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<PublishOutcome> {
  const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, true);
  if (!journey) throw journeyNotFound();
  if (!version) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
  if (typeof version.publishedAt === 'string') return { ok: true, version: toVersion(version), journey: toJourney(journey) };
  const read = Number(version.revision);
  assertRevision(precondition, read, true);

  const content = decodeJson(version.content as Uint8Array) as JourneyContent;
  const { facts } = await loadReferenceFacts(workspace, content);
  const fresh = diagnoseContent(content, facts, journeyId);
  if (fresh.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false, diagnostics: storedDiagnostics(fresh).kept };

  const diagnostics = storedDiagnostics(fresh);
  const pairs = pairTargetsOf(content);
  const now = new Date().toISOString();
  const before = new Set(distinctJourneys(pairsFromAttribute(journey.publishedPairs)));
  const after = new Set(distinctJourneys(pairs));
  const journeyVersion = Number(journey.version);
  try {
    await transact({
      version: {
        Update: {
          TableName: tableName,
          Key: versionKey(workspace, journeyId, versionId),
          UpdateExpression: 'SET publishedAt = :now, updatedAt = :now, #diagnostics = :diagnostics, diagnosticsBytes = :diagnosticsBytes',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt) AND #revision = :read',
          ExpressionAttributeNames: { '#diagnostics': 'diagnostics', '#revision': 'revision' },
          ExpressionAttributeValues: {
            ':now': now,
            ':diagnostics': diagnostics.bytes,
            ':diagnosticsBytes': diagnostics.rawBytes,
            ':read': read,
          },
        },
      },
      journey: {
        Update: {
          TableName: tableName,
          Key: keys.journey(workspace, journeyId),
          UpdateExpression: 'SET publishedVersionId = :versionId, publishedPairs = :pairs, updatedAt = :now, #version = #version + :one',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':versionId': versionId, ':pairs': pairsAttribute(pairs), ':now': now, ':one': 1 },
        },
      },
      ...startPairingAll(
        workspace,
        [...after].filter((id) => !before.has(id)),
        journeyId,
      ),
      ...stopPairingAll(
        workspace,
        [...before].filter((id) => !after.has(id)),
        journeyId,
      ),
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    const versionRefused = versionFailure(error);
    if (versionRefused) throw versionRefused;
    if (error.failed('journey')) throw error.current('journey') ? journeyArchived() : journeyNotFound();
    // Only a `pair <id>` condition is left: that journey was archived since the references were read.
    throw new ConflictError(
      'references_changed',
      'A journey this version pairs was archived while publishing; publish again for fresh diagnostics',
    );
  }
  return {
    ok: true,
    version: { ...toVersionMetadata(version), publishedAt: now, updatedAt: now, content, diagnostics: diagnostics.kept },
    journey: { ...toJourney(journey), publishedVersionId: versionId, updatedAt: now, version: journeyVersion + 1 },
  };
}
