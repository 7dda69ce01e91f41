/**
 * Publishing a version (after commands/publish-journey-version.ts has diagnosed it afresh): one
 * transaction that locks the version, points the journey at it and moves the `pairedBy` sets of the
 * journeys it pairs or no longer pairs.
 */

import { tableName } from '../../platform/data/client.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { PairTarget } from '../cycles.ts';
import { journeyEntity, journeyVersionEntity } from '../entities.ts';
import { journeyArchived, journeyNotFound } from '../errors.ts';
import { bindingsAttribute, type ResolvedBinding } from '../metric-bindings.ts';
import { pairsAttribute } from '../record.ts';
import { versionFailure } from './drafts.ts';
import { followAll, unfollowAll } from './metric-follows.ts';
import { distinctJourneys, startPairingAll, stopPairingAll } from './pairing.ts';

/** What publishing writes: fresh diagnostics, the pairs it follows and those it followed, at the revision read. */
export interface PublicationWrite {
  read: number;
  diagnostics: { bytes: Uint8Array; rawBytes: number };
  pairs: readonly PairTarget[];
  /** The pairs of the journey's published version until now. */
  previousPairs: readonly PairTarget[];
  /** The answer ranges of its bound metric cells, resolved from the surveys now. */
  bindings: readonly ResolvedBinding[];
  /** The surveys (and their questions) its unpinned metric cells follow, and those the published version followed. */
  followed: ReadonlyMap<string, string[]>;
  previouslyFollowed: ReadonlySet<string>;
  now: string;
}

/**
 * ONE transaction: the version gets `publishedAt` (if still at the revision read), the journey
 * points at it and keeps its pairs, and the `pairedBy` sets of the journeys it newly pairs or no
 * longer pairs change with it.
 */
export async function writePublication(workspace: string, journeyId: string, versionId: string, write: PublicationWrite): Promise<void> {
  const { read, diagnostics, pairs, now } = write;
  const before = new Set(distinctJourneys(write.previousPairs));
  const after = new Set(distinctJourneys(pairs));
  try {
    await transact({
      version: {
        Update: {
          TableName: tableName,
          Key: journeyVersionEntity.keys.version(workspace, journeyId, versionId),
          ...update()
            .set('publishedAt', now)
            .set('updatedAt', now)
            .set('diagnostics', diagnostics.bytes)
            .set('diagnosticsBytes', diagnostics.rawBytes)
            .set('bindings', bindingsAttribute(write.bindings))
            .build({
              expression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt) AND #revision = :read',
              names: { '#revision': 'revision' },
              values: { ':read': read },
            }),
        },
      },
      journey: {
        Update: {
          TableName: tableName,
          Key: journeyEntity.keys.journey(workspace, journeyId),
          ...update()
            .set('publishedVersionId', versionId)
            .set('publishedPairs', pairsAttribute(pairs))
            .set('publishedMetricSurveys', JSON.stringify([...write.followed.keys()]))
            .set('updatedAt', now)
            .increment('version')
            .build({ expression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)' }),
        },
      },
      // The survey publish gate's index (metric-follows.ts): what this version follows, nothing else.
      ...followAll(workspace, write.followed, journeyId, versionId, now),
      ...unfollowAll(
        workspace,
        [...write.previouslyFollowed].filter((surveyId) => !write.followed.has(surveyId)),
        journeyId,
      ),
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
}
