/** The knowledge bank's own error answers, on the platform's typed errors, and the codes it adds to the catalog. */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { ApiError, BadRequestError, ConflictError, NotFoundError } from '../platform/errors.ts';
import type { PublishCheck } from './publish.ts';

export const knowledgeBankErrorCodes = defineErrorCodes({
  400: {
    not_publishable: 'The draft has no title, or no block with text, in its source language; `issues` says which',
    invalid_links:
      'A link names no article or category of the workspace, or a public article links an internal or unpublished one; `issues` names each',
    duplicate_block_id: 'Two blocks of the article share an id',
    too_many_links: 'The article links more than 40 distinct articles and categories',
    category_not_found: '`categoryId` names no category of this workspace',
    parent_not_found: '`parentId` names no category of this workspace',
    category_cycle: 'A category cannot move under itself or one of its subcategories',
    category_too_deep: 'Categories nest at most 3 levels deep',
  },
  409: {
    slug_taken: 'Another article or category (the same kind) of this workspace has the slug',
    category_not_empty: 'The category still holds categories or articles: move or delete them first',
    article_linked: 'Published articles link to this one: remove the links, or delete with `?force=true`',
    not_published: 'The article is not published',
    tree_changed: 'The category tree changed while the request ran: send it again',
  },
});

/** Another workspace's id answers exactly like one that never existed. */
export const categoryNotFound = () => new NotFoundError('not_found', 'No category with this id in this workspace');
export const articleNotFound = () => new NotFoundError('not_found', 'No article with this id in this workspace');

export function slugTaken(kind: 'article' | 'category'): ConflictError {
  return new ConflictError('slug_taken', `Another ${kind} in this workspace already has this slug`);
}

export const revisionNotFound = (articleId: string, revision: number) =>
  new NotFoundError('not_found', `Article ${articleId} has no revision ${revision}`);

/** An article's `categoryId` that names no category: a 400, since the article itself exists. */
export const categoryNotFoundForArticle = () => new BadRequestError('category_not_found', 'categoryId names no category in this workspace');

export function placementError(reason: 'parent_not_found' | 'cycle' | 'too_deep'): BadRequestError {
  if (reason === 'parent_not_found') return new BadRequestError('parent_not_found', 'parentId names no category in this workspace');
  if (reason === 'cycle') return new BadRequestError('category_cycle', 'A category cannot move under itself or its own subcategory');
  return new BadRequestError('category_too_deep', 'Categories nest at most 3 levels deep (counting the subcategories a move carries)');
}

export const treeChanged = () => new ConflictError('tree_changed', 'The category tree changed while this request ran; retry it');

export function categoryNotEmpty(categories: number, articles: number): ConflictError {
  return new ConflictError(
    'category_not_empty',
    `The category still holds ${categories} categories and ${articles} articles; move or delete them first`,
  );
}

export const bothNamesCleared = () => new BadRequestError('invalid_body', 'A category keeps nameEn or nameAr; both cannot be cleared');

export function articleLinked(linkedFrom: readonly string[]): ApiError {
  return new ApiError(
    409,
    'article_linked',
    `Published articles link to this article: ${linkedFrom.join(', ')}. Remove the links, or delete with ?force=true`,
    {},
    linkedFrom.map((source) => ({ path: `backlinks.${source}`, message: `published article ${source} links here` })),
  );
}

export const notPublished = () => new ConflictError('not_published', 'The article is not published');

/** The 400 a draft that may not be published answers with, listing each issue. */
export function publishRefusal(check: Extract<PublishCheck, { ok: false }>): BadRequestError {
  const summary =
    check.error === 'invalid_links'
      ? `The draft has ${check.issues.length} link(s) that cannot be published`
      : 'The draft lacks what publishing needs in its source language';
  return new BadRequestError(check.error, `${summary}: ${check.issues.map((i) => i.message).join('; ')}`, check.issues);
}
