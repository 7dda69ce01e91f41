/** The knowledge bank's own error answers, on the platform's typed errors. */
import { ConflictError, NotFoundError } from '../platform/errors.ts';

/** Another workspace's id answers exactly like one that never existed. */
export const categoryNotFound = () => new NotFoundError('not_found', 'No category with this id in this workspace');
export const articleNotFound = () => new NotFoundError('not_found', 'No article with this id in this workspace');

export function slugTaken(kind: 'article' | 'category'): ConflictError {
  return new ConflictError('slug_taken', `Another ${kind} in this workspace already has this slug`);
}
