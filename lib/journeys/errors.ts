/** The Journeys area's own error answers, on the platform's typed errors. */
import { ConflictError, NotFoundError } from '../platform/errors.ts';

/** Another workspace's id answers exactly like one that never existed. */
export const journeyNotFound = () => new NotFoundError('not_found', 'No journey with this id in this workspace');
export const versionNotFound = () => new NotFoundError('not_found', 'No version with this id in this journey');
export const journeyArchived = () => new ConflictError('journey_archived', 'The journey is archived; it can be read but no longer changed');
export const versionLocked = () =>
  new ConflictError('version_locked', 'The version is published, and published versions never change; branch a new draft from it');
export const lastVersion = () => new ConflictError('last_version', "This is the journey's only version; a journey keeps at least one");
export const journeyInUse = (pairedBy: readonly string[]) =>
  new ConflictError(
    'journey_in_use',
    `The published version of another journey pairs this one (${pairedBy.slice(0, 5).join(', ')}); unpair it first`,
  );
