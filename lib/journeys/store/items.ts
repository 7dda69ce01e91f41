/**
 * What every journey access pattern shares beyond the platform's data kit (lib/platform/data/): the
 * version key, the attributes of a metadata read, and the read of a journey with one version. Every
 * key is under the workspace's partition (keys.journey*), so another workspace's id is simply not found.
 */
import { getMany, type Item } from '../../platform/data/batch.ts';
import { journeyEntity, journeyVersionEntity } from '../entities.ts';

/** Items asked of one Query page while skipping to an offset. */
export const MAX_ITEMS_PER_QUERY = 1000;

/** What the reference loader and the metadata reads need: everything but content and diagnostics. */
export const METADATA_ATTRIBUTES = [
  'pk',
  'sk',
  'entity',
  'id',
  'journeyId',
  'kind',
  'titleEn',
  'titleAr',
  'parentJourneyId',
  'stageId',
  'publishedVersionId',
  'publishedPairs',
  'pairedBy',
  'versionCount',
  'version',
  'createdAt',
  'updatedAt',
  'archivedAt',
  'label',
  'parentVersionId',
  'createdBy',
  'publishedAt',
  'revision',
  'sourceRevision',
  'legacyOrigin',
  'pairs',
] as const;

/** The journey and one version (metadata only, or whole), read together in one BatchGetItem. */
export async function readJourneyAndVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  whole: boolean,
): Promise<{ journey: Item | undefined; version: Item | undefined }> {
  const [journey, version] = await getMany(
    [journeyEntity.keys.journey(workspace, journeyId), journeyVersionEntity.keys.version(workspace, journeyId, versionId)],
    whole ? {} : { attributes: METADATA_ATTRIBUTES },
  );
  return { journey, version };
}
