/** The knowledge bank's own error answers, on the platform's typed errors, and the codes it adds to the catalog. */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { ConflictError, NotFoundError } from '../platform/errors.ts';

export const knowledgeBankErrorCodes = defineErrorCodes({
  not_publishable: { status: 400, meaning: 'The draft has no title, or no block with text, in its source language; `issues` says which' },
  invalid_links: {
    status: 400,
    meaning:
      'A link names no article or category of the workspace, or a public article links an internal or unpublished one; `issues` names each',
  },
  duplicate_block_id: { status: 400, meaning: 'Two blocks of the article share an id' },
  too_many_links: { status: 400, meaning: 'The article links more than 40 distinct articles and categories' },
  category_not_found: { status: 400, meaning: '`categoryId` names no category of this workspace' },
  parent_not_found: { status: 400, meaning: '`parentId` names no category of this workspace' },
  category_cycle: { status: 400, meaning: 'A category cannot move under itself or one of its subcategories' },
  category_too_deep: { status: 400, meaning: 'Categories nest at most 3 levels deep' },
  slug_taken: { status: 409, meaning: 'Another article or category (the same kind) of this workspace has the slug' },
  category_not_empty: { status: 409, meaning: 'The category still holds categories or articles: move or delete them first' },
  article_linked: { status: 409, meaning: 'Published articles link to this one: remove the links, or delete with `?force=true`' },
  not_published: { status: 409, meaning: 'The article is not published' },
  tree_changed: { status: 409, meaning: 'The category tree changed while the request ran: send it again' },
});

/** Another workspace's id answers exactly like one that never existed. */
export const categoryNotFound = () => new NotFoundError('not_found', 'No category with this id in this workspace');
export const articleNotFound = () => new NotFoundError('not_found', 'No article with this id in this workspace');

export function slugTaken(kind: 'article' | 'category'): ConflictError {
  return new ConflictError('slug_taken', `Another ${kind} in this workspace already has this slug`);
}
