/** The SOPs area's own error answers, on the platform's typed errors (it adds no code to the catalog). */
import { NotFoundError } from '../platform/errors.ts';

/** Another workspace's id, and a published-only key's look at an unpublished SOP, answer like an SOP that never existed. */
export const sopNotFound = () => new NotFoundError('not_found', 'No SOP with this id exists in this workspace');
