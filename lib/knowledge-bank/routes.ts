/**
 * Routes of the Knowledge Bank area (module `knowledge-bank`): categories, articles of typed
 * blocks with a draft beside the live revision, revisions and restore, links and backlinks, and
 * translation status.
 */
import * as z from 'zod/mini';
import { etagHeader, okBody, optionalIfMatch, requiredIfMatch, routesOf } from '../platform/route.ts';
import { okOnly, pageQuery, pagination } from '../platform/schemas.ts';
import {
  article,
  articleCreate,
  articleIdParams,
  articleListQuery,
  articlePatch,
  articleSummary,
  backlink,
  category,
  categoryCreate,
  categoryIdParams,
  categoryPatch,
  deleteArticleQuery,
  draftWrite,
  link,
  revision,
  revisionParams,
  revisionSummary,
  translationItem,
  translationsQuery,
  viewQuery,
} from './schemas.ts';

const route = routesOf({ tag: 'Knowledge Bank', module: 'knowledge-bank', omitFromFileNames: 'KnowledgeBank' });

const ETAG = etagHeader('The record\'s version as a strong ETag, e.g. `"3"`: send it back in `If-Match`');
const IF_MATCH = optionalIfMatch(
  'Optional optimistic concurrency: the ETag (e.g. `"3"`) you read, several comma-separated, or `*`. ' +
    'A stale one fails with 409 `version_conflict` and changes nothing.',
);
const IF_MATCH_REQUIRED = requiredIfMatch(
  'Required: the article\'s ETag as you read it (e.g. `"3"`), or `*` to overwrite whatever is there. ' +
    'Missing → 400 `if_match_required`; stale → 409 `version_conflict`.',
);

const categoryResponse = okBody({ category });
const articleResponse = okBody({ article });

const CATEGORY_404 = { not_found: "no category with this id in this workspace (another workspace's ids are never visible)" };
const ARTICLE_404 = 'no article with this id in this workspace; for a read-only key also an article that is not published now';
const CONTENT_400 = {
  invalid_body: 'unknown fields, a block of an unknown type, more than 500 blocks, a bad link',
  duplicate_block_id: true,
  too_many_links: true,
} as const;
const CONTENT_413 = { content_too_large: 'the draft is over 1,048,576 bytes of UTF-8 JSON (or does not compress into one stored item)' };
const VIEW_NOTE =
  '`?view=draft` (the default for keys holding `knowledge-bank:write`) or `?view=live` (the default, and the only view, for read-only keys: ' +
  'a read-only key asking for the draft gets 403 `missing_permission`, and an article that is not published now is a 404 to it).';
const BLOCKS_NOTE =
  'Blocks are typed (`paragraph`, `heading`, `callout`, `quote`, `list`, `table`, `faq`, `image`, `code`, `embed`, `divider`); ' +
  "text is `{en?: Span[], ar?: Span[]}` and a span's `link` is structured (`{href}`, `{articleId, anchor?}`, `{categoryId}`, `{record}`). " +
  "A block sent without `id` gets one; send ids back to keep each block's translation status.";

export const listKnowledgeBankCategories = route({
  operationId: 'listKnowledgeBankCategories',
  method: 'GET',
  path: '/knowledge-bank/categories',
  summary: 'The category tree, flattened',
  description: 'Every category in display order: a parent before its children, siblings by `position`. `depth` is 1 to 3.',
  permissions: ['knowledge-bank:read'],
  response: { status: 200, body: okBody({ categories: z.array(category) }) },
  table: ['Query'],
});

export const createKnowledgeBankCategory = route({
  operationId: 'createKnowledgeBankCategory',
  method: 'POST',
  path: '/knowledge-bank/categories',
  summary: 'Create a category',
  description:
    '`nameEn` or `nameAr` is required. `parentId` nests it (at most 3 levels). `slug` is generated from the name when not given ' +
    '(Arabic names keep their letters), with a numeric suffix on a clash; a given slug that is taken is 409 `slug_taken`. ' +
    '`position` defaults to after its last sibling. ' +
    'Send an `Idempotency-Key` to retry safely: within 24 hours the same key and body answer the first response again.',
  permissions: ['knowledge-bank:write'],
  idempotent: true,
  request: { body: categoryCreate },
  response: { status: 201, body: categoryResponse, headers: ETAG, location: '/knowledge-bank/categories/{category.id}' },
  errors: {
    400: { parent_not_found: true, category_too_deep: 'a 4th level' },
    409: { slug_taken: true, tree_changed: true },
  },
  table: ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
});

export const getKnowledgeBankCategory = route({
  operationId: 'getKnowledgeBankCategory',
  method: 'GET',
  path: '/knowledge-bank/categories/{categoryId}',
  summary: 'Read a category',
  permissions: ['knowledge-bank:read'],
  request: { params: categoryIdParams },
  response: { status: 200, body: categoryResponse, headers: ETAG },
  errors: { 404: CATEGORY_404 },
  table: ['Query'],
});

export const updateKnowledgeBankCategory = route({
  operationId: 'updateKnowledgeBankCategory',
  method: 'PATCH',
  path: '/knowledge-bank/categories/{categoryId}',
  summary: 'Rename, move or reorder a category',
  description:
    'Any of the names, descriptions, `slug`, `visibility`, `parentId` (moves it with its subcategories; `null` makes it top-level) ' +
    'and `position`. A move that would make a cycle or a 4th level is a 400. Bumps the version.',
  permissions: ['knowledge-bank:write'],
  request: { params: categoryIdParams, body: categoryPatch, headers: IF_MATCH },
  response: { status: 200, body: categoryResponse, headers: ETAG },
  errors: {
    400: { category_cycle: true, category_too_deep: true, parent_not_found: true, invalid_body: 'also clearing both names' },
    404: CATEGORY_404,
    409: { slug_taken: true, tree_changed: true },
  },
  table: ['Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
});

export const deleteKnowledgeBankCategory = route({
  operationId: 'deleteKnowledgeBankCategory',
  method: 'DELETE',
  path: '/knowledge-bank/categories/{categoryId}',
  summary: 'Delete an empty category',
  permissions: ['knowledge-bank:delete'],
  request: { params: categoryIdParams, headers: IF_MATCH },
  response: { status: 200, body: okOnly },
  errors: { 404: CATEGORY_404, 409: { category_not_empty: true } },
  // UpdateItem: deleting a sub-category lowers its parent's childCount in the same transaction.
  table: ['Query', 'DeleteItem', 'UpdateItem'],
});

export const listKnowledgeBankArticles = route({
  operationId: 'listKnowledgeBankArticles',
  method: 'GET',
  path: '/knowledge-bank/articles',
  summary: 'List articles (metadata)',
  description:
    'Newest first. Filters: `categoryId`, `status`, `tag`, `visibility`. Write keys see every article with its draft titles; ' +
    'read-only keys see published articles only, with their live titles. `pagination.total` counts the matches.',
  permissions: ['knowledge-bank:read'],
  request: { query: articleListQuery },
  // Writers and readers see different articles: a cursor is bound to the key's view too.
  cursorBinds: { permissions: ['knowledge-bank:write'] },
  response: { status: 200, body: okBody({ articles: z.array(articleSummary), pagination }) },
  table: ['Query'],
});

export const createKnowledgeBankArticle = route({
  operationId: 'createKnowledgeBankArticle',
  method: 'POST',
  path: '/knowledge-bank/articles',
  summary: 'Create an article (a draft)',
  description:
    `Creates an unpublished draft in \`categoryId\`. \`sourceLanguage\` defaults to the language of the title given (English when both or none). ${BLOCKS_NOTE} ` +
    '`slug` is generated from the source-language title when not given, with a numeric suffix on a clash; a given slug that is taken is 409 `slug_taken`. ' +
    'Send an `Idempotency-Key` to retry safely: within 24 hours the same key and body answer with the article created first, as it is now.',
  permissions: ['knowledge-bank:write'],
  idempotent: true,
  request: { body: articleCreate },
  response: { status: 201, body: articleResponse, headers: ETAG, location: '/knowledge-bank/articles/{article.id}' },
  errors: { 400: { category_not_found: true, ...CONTENT_400 }, 409: { slug_taken: true }, 413: CONTENT_413 },
  table: ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
});

export const getKnowledgeBankArticle = route({
  operationId: 'getKnowledgeBankArticle',
  method: 'GET',
  path: '/knowledge-bank/articles/{articleId}',
  summary: 'Read an article, draft or live',
  description: `${VIEW_NOTE} Each block carries \`translation\` (complete, missing, outdated) for the language that is not the source.`,
  permissions: ['knowledge-bank:read'],
  request: { params: articleIdParams, query: viewQuery },
  response: { status: 200, body: articleResponse, headers: ETAG },
  errors: { 404: { not_found: `${ARTICLE_404}; also \`?view=live\` of an article with no live revision` } },
  table: ['BatchGetItem'],
});

export const updateKnowledgeBankArticle = route({
  operationId: 'updateKnowledgeBankArticle',
  method: 'PATCH',
  path: '/knowledge-bank/articles/{articleId}',
  summary: "Change an article's category, tags, visibility or slug",
  description: 'Metadata only (content changes go through the draft). Takes effect at once, live included. Returns the draft view.',
  permissions: ['knowledge-bank:write'],
  request: { params: articleIdParams, body: articlePatch, headers: IF_MATCH },
  response: { status: 200, body: articleResponse, headers: ETAG },
  errors: { 400: { category_not_found: true }, 404: { not_found: ARTICLE_404 }, 409: { slug_taken: true } },
  table: ['BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
});

export const saveKnowledgeBankDraft = route({
  operationId: 'saveKnowledgeBankDraft',
  method: 'PUT',
  path: '/knowledge-bank/articles/{articleId}/draft',
  summary: 'Replace the draft',
  description:
    `Replaces the draft's titles, summaries and blocks (what is left out is cleared); the live revision is untouched. ${BLOCKS_NOTE} ` +
    'A block whose source-language text changed while its translation did not becomes `outdated`.',
  permissions: ['knowledge-bank:write'],
  request: { params: articleIdParams, body: draftWrite, headers: IF_MATCH_REQUIRED },
  response: { status: 200, body: articleResponse, headers: ETAG },
  errors: { 400: CONTENT_400, 404: { not_found: ARTICLE_404 }, 413: CONTENT_413 },
  table: ['BatchGetItem', 'PutItem', 'DeleteItem'],
});

export const publishKnowledgeBankArticle = route({
  operationId: 'publishKnowledgeBankArticle',
  method: 'POST',
  path: '/knowledge-bank/articles/{articleId}/publish',
  summary: 'Publish the draft',
  description:
    'The draft becomes the next revision (immutable) and goes live. Needs a title and a block with text in the source language. ' +
    'Every linked article and category must exist, and a `public` article may not link to an `internal` or unpublished article. ' +
    'Publishing a draft with no changes since the latest revision creates no new revision.',
  permissions: ['knowledge-bank:write'],
  request: { params: articleIdParams, headers: IF_MATCH },
  response: { status: 200, body: articleResponse, headers: ETAG },
  errors: {
    400: { not_publishable: true, invalid_links: 'with `issues` naming each bad link by block' },
    404: { not_found: ARTICLE_404 },
  },
  table: ['BatchGetItem', 'PutItem', 'DeleteItem'],
});

export const unpublishKnowledgeBankArticle = route({
  operationId: 'unpublishKnowledgeBankArticle',
  method: 'POST',
  path: '/knowledge-bank/articles/{articleId}/unpublish',
  summary: 'Take an article offline',
  description: 'Read-only keys no longer see it; its draft and revisions are kept. Its live links stop counting as backlinks.',
  permissions: ['knowledge-bank:write'],
  request: { params: articleIdParams, headers: IF_MATCH },
  response: { status: 200, body: articleResponse, headers: ETAG },
  errors: { 404: { not_found: ARTICLE_404 }, 409: { not_published: true } },
  table: ['BatchGetItem', 'PutItem', 'DeleteItem'],
});

export const deleteKnowledgeBankArticle = route({
  operationId: 'deleteKnowledgeBankArticle',
  method: 'DELETE',
  path: '/knowledge-bank/articles/{articleId}',
  summary: 'Delete an article and its revisions',
  description: 'Refused while published articles link to it (409 `article_linked`, listing them in `issues`) unless `?force=true`.',
  permissions: ['knowledge-bank:delete'],
  request: { params: articleIdParams, query: deleteArticleQuery, headers: IF_MATCH },
  response: { status: 200, body: okOnly },
  errors: { 404: { not_found: ARTICLE_404 }, 409: { article_linked: true } },
  table: ['BatchGetItem', 'Query', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
});

export const listKnowledgeBankRevisions = route({
  operationId: 'listKnowledgeBankRevisions',
  method: 'GET',
  path: '/knowledge-bank/articles/{articleId}/revisions',
  summary: "An article's revisions, newest first",
  permissions: ['knowledge-bank:read'],
  request: { params: articleIdParams, query: pageQuery },
  response: { status: 200, body: okBody({ revisions: z.array(revisionSummary), pagination }) },
  errors: { 404: { not_found: ARTICLE_404 } },
  table: ['GetItem', 'Query'],
});

export const getKnowledgeBankRevision = route({
  operationId: 'getKnowledgeBankRevision',
  method: 'GET',
  path: '/knowledge-bank/articles/{articleId}/revisions/{revision}',
  summary: 'One revision with its blocks',
  permissions: ['knowledge-bank:read'],
  request: { params: revisionParams },
  response: { status: 200, body: okBody({ revision }) },
  errors: { 404: { not_found: `${ARTICLE_404}; or no such revision` } },
  table: ['BatchGetItem'],
});

export const restoreKnowledgeBankRevision = route({
  operationId: 'restoreKnowledgeBankRevision',
  method: 'POST',
  path: '/knowledge-bank/articles/{articleId}/revisions/{revision}/restore',
  summary: 'Copy a revision into the draft',
  description:
    'History is never rewritten: the revision stays, the draft becomes a copy of it (with its translation status), and publishing it makes a new revision.',
  permissions: ['knowledge-bank:write'],
  request: { params: revisionParams, headers: IF_MATCH },
  response: { status: 200, body: articleResponse, headers: ETAG },
  errors: { 404: { not_found: `${ARTICLE_404}; or no such revision` } },
  table: ['BatchGetItem', 'PutItem'],
});

export const listKnowledgeBankLinks = route({
  operationId: 'listKnowledgeBankLinks',
  method: 'GET',
  path: '/knowledge-bank/articles/{articleId}/links',
  summary: "An article's outgoing links",
  description: `Internal and external links, each with its block. ${VIEW_NOTE}`,
  permissions: ['knowledge-bank:read'],
  request: { params: articleIdParams, query: viewQuery },
  response: { status: 200, body: okBody({ links: z.array(link) }) },
  errors: { 404: { not_found: ARTICLE_404 } },
  table: ['BatchGetItem'],
});

export const listKnowledgeBankBacklinks = route({
  operationId: 'listKnowledgeBankBacklinks',
  method: 'GET',
  path: '/knowledge-bank/articles/{articleId}/backlinks',
  summary: 'Articles that link here',
  description: 'Articles whose live content links here and, for write keys, whose draft does.',
  permissions: ['knowledge-bank:read'],
  request: { params: articleIdParams },
  response: { status: 200, body: okBody({ backlinks: z.array(backlink) }) },
  errors: { 404: { not_found: ARTICLE_404 } },
  table: ['GetItem', 'Query'],
});

export const listKnowledgeBankTranslations = route({
  operationId: 'listKnowledgeBankTranslations',
  method: 'GET',
  path: '/knowledge-bank/translations',
  summary: "Translation status of every article's draft",
  description:
    'What translators work on: each article with `translations` (`{en, ar}`: complete, partial, outdated or missing), computed on drafts. ' +
    '`locale` and `status` filter (`?locale=ar&status=outdated`); with `locale` alone, every article not complete in it. Newest first. ' +
    'Read-only keys see published articles only, with the titles and statuses of their live revision.',
  permissions: ['knowledge-bank:read'],
  request: { query: translationsQuery },
  // Writers and readers see different articles: a cursor is bound to the key's view too.
  cursorBinds: { permissions: ['knowledge-bank:write'] },
  response: { status: 200, body: okBody({ articles: z.array(translationItem), pagination }) },
  table: ['Query'],
});
