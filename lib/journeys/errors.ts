/** The Journeys area's own error answers, on the platform's typed errors, and the codes it adds to the catalog. */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../platform/errors.ts';
import type { Diagnostic } from './diagnostics.ts';

export const journeyErrorCodes = defineErrorCodes({
  400: {
    invalid_content: 'The version has error diagnostics, so it is not published; `diagnostics` lists every one',
  },
  409: {
    journey_archived: 'The journey is archived: it can be read, but no longer changes',
    journey_in_use: 'The published version of another journey pairs this one: unpair it first',
    last_version: 'A journey keeps at least one version: its only one is not deleted',
    references_changed: 'A journey this version pairs was archived while publishing: publish again for fresh diagnostics',
  },
});

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

/** Publish refused: the version's fresh diagnostics hold errors; every diagnostic goes with the answer. */
export function invalidContent(diagnostics: Diagnostic[]) {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  return new BadRequestError(
    'invalid_content',
    `The version has ${errors} error diagnostic${errors === 1 ? '' : 's'}; fix them and save before publishing`,
    undefined,
    { diagnostics },
  );
}
