/**
 * What a journey's state allows, apart from the store: the store reads (or a failed write's
 * condition hands back) the journey or version as it stands, these rules decide the answer, and the
 * write's own condition still guards the race between the two. Pure functions over stored items.
 */
import { meetsPrecondition, type VersionPrecondition } from '../platform/data/conditions.ts';
import { BadRequestError, VersionConflictError } from '../platform/errors.ts';
import { ifMatchRequired } from '../platform/http/conditional-request.ts';
import { journeyArchived, journeyInUse, journeyNotFound, versionLocked, versionNotFound } from './errors.ts';

type Item = Record<string, unknown>;

/** The checks every version write makes, in the order: 404, archived, published. */
export function assertWritable(journey: Item | undefined, version: Item | undefined): asserts version is Item {
  if (!journey) throw journeyNotFound();
  if (!version) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
  if (typeof version.publishedAt === 'string') throw versionLocked();
}

/** Then If-Match: required where `required` (its route declares it answered after the read), and never stale. */
export function assertRevision(precondition: VersionPrecondition, revision: number, required: boolean) {
  if (required && !precondition) throw ifMatchRequired();
  if (!meetsPrecondition(precondition, revision)) throw new VersionConflictError(revision);
}

/** Why a version write's condition failed, from the version it saw: gone 404, published 409 locked, else 409 at its revision. */
export function versionRefusal(current: Item | undefined): Error {
  if (!current) return versionNotFound();
  if (current.publishedAt) return versionLocked();
  return new VersionConflictError(Number(current.revision ?? 0));
}

/** The journey exists and is not archived. */
function assertActive(journey: Item | undefined): asserts journey is Item {
  if (!journey) throw journeyNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
}

/** Archive: an active journey, at the If-Match version, that no other journey's published version pairs. */
export function assertArchivable(journey: Item | undefined, precondition: VersionPrecondition): asserts journey is Item {
  assertActive(journey);
  const at = Number(journey.version);
  if (!meetsPrecondition(precondition, at)) throw new VersionConflictError(at);
  const pairedBy = [...((journey.pairedBy as Set<string> | undefined) ?? [])];
  if (pairedBy.length > 0) throw journeyInUse(pairedBy);
}

/** Why a title change's condition failed, from the journey it saw: 404, archived, a stale If-Match, else the last title removed. */
export function titleChangeRefusal(current: Item | undefined, precondition: VersionPrecondition): Error {
  if (!current) return journeyNotFound();
  if (current.archivedAt) return journeyArchived();
  const at = Number(current.version);
  if (!meetsPrecondition(precondition, at)) return new VersionConflictError(at);
  return new BadRequestError('invalid_body', 'A journey keeps at least one title: this change would remove the last one', [
    { path: 'body', message: 'removes the last title; set `titleEn` or `titleAr`' },
  ]);
}
