/** The Ideas area's own error answers, on the platform's typed errors (it adds no code to the catalog). */
import { NotFoundError, VersionConflictError } from '../platform/errors.ts';

/** The one answer for an id this workspace has no idea under, whether it never existed or is another's. */
export const ideaNotFound = () => new NotFoundError('not_found', 'No idea with this id in this workspace');

/** What a failed condition's current item says: 404 when the idea is gone, else 409 at its version. */
export function ideaConditionFailure(current: Record<string, unknown> | undefined): Error {
  const version = current?.version;
  return version === undefined ? ideaNotFound() : new VersionConflictError(Number(version));
}
