/**
 * The search index's one table item (lib/platform/data/entity.ts): the list of a workspace's index
 * segments in S3, with a version every change of it is conditioned on, so builders racing on one
 * workspace never lose a segment. Not an entity the search builder's stream filter passes.
 */
import { defineEntity } from '../../platform/data/entity.ts';
import { workspacePk } from '../../platform/data/keys.ts';

export const kbSearchManifestEntity = defineEntity({
  name: 'KbSearchManifest',
  keys: { manifest: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'KBSEARCH#MANIFEST' }) },
});
