import { ApiError, ConflictError, NotFoundError } from '../platform/errors.ts';

/** 413 `content_too_large`: the content passed 1,048,576 bytes of JSON, or does not compress to fit one item. */
export class ContentTooLargeError extends ApiError {
  constructor(message: string) {
    super(413, 'content_too_large', message);
  }
}

export const categoryNotFound = () => new NotFoundError('not_found', 'No category with this id in this workspace');
export const articleNotFound = () => new NotFoundError('not_found', 'No article with this id in this workspace');

export function slugTaken(kind: 'article' | 'category'): ConflictError {
  return new ConflictError('slug_taken', `Another ${kind} in this workspace already has this slug`);
}
