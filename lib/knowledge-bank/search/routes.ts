/**
 * Routes of knowledge-bank search and external link checking (module `knowledge-bank`), spread
 * into the manifest beside the area's content routes.
 */
import { routesOf } from '../../platform/route.ts';
import { noQuery, okOnly } from '../../platform/schemas.ts';
import { linkListQuery, linkListResponse, searchQuery, searchResponse } from './schemas.ts';

const route = routesOf({ tag: 'Knowledge Bank', module: 'knowledge-bank', omitFromFileNames: 'KnowledgeBank' });

export const searchKnowledgeBank = route({
  operationId: 'searchKnowledgeBank',
  method: 'GET',
  path: '/knowledge-bank/search',
  handler: 'functions/knowledge-bank/search-articles.ts',
  summary: 'Search published articles (English and Arabic)',
  description:
    'Full-text search over the live content of published articles (both visibilities; `visibility` filters). Every word of `q` ' +
    'must match, the last one also as a prefix; words of 5 or more letters tolerate one typo. Arabic is normalised on both sides ' +
    '(diacritics and tatweel removed, أ إ آ ٱ → ا, ى → ي, ة → ه, Arabic-Indic digits → ASCII) and lightly stemmed (the definite ' +
    'article and common plural, dual and possessive endings: "فواتير" finds "الفواتير"); English is stemmed. Ranking: title, then ' +
    'summary, then tags, then body. Tags match from either locale. `title` and `snippet` are in the language the article matched ' +
    'in (`locale` when given); an article with no title in it shows its source language title. Results reflect a publish, ' +
    'unpublish or delete within a few seconds.',
  permissions: ['knowledge-bank:read'],
  request: { query: searchQuery },
  response: { status: 200, body: searchResponse },
  errors: { 400: { invalid_query: '`q` missing, blank or over 200 characters; `limit` outside 1–50; an unknown parameter' } },
  // BatchGetItem: the page of results' metadata, and the live content (titles, snippets) an instance
  // has not read yet (store/live-contents.ts). Query: only for a workspace with no index yet, indexed from
  // the table (index-cache.ts).
  table: ['BatchGetItem', 'Query'],
});

export const listKnowledgeBankExternalLinks = route({
  operationId: 'listKnowledgeBankExternalLinks',
  method: 'GET',
  path: '/knowledge-bank/links',
  summary: 'External links and what the link checker found',
  description:
    'Every distinct external URL linked from an article (draft or live), sorted by URL, with the articles linking to it and the ' +
    'result of its last check: `ok` (2xx), `redirected` (3xx; `redirectTo` is where it points, not followed), `broken` (4xx, 5xx, ' +
    'timeout after 10 s, no such host, or an address the outbound guard refuses) or `unchecked`. `mailto:` links are listed, never checked.',
  permissions: ['knowledge-bank:read'],
  request: { query: linkListQuery },
  // Writers and readers see different links: a cursor is bound to the key's view too.
  cursorBinds: { permissions: ['knowledge-bank:write'] },
  response: { status: 200, body: linkListResponse },
  table: ['Query'],
});

export const checkKnowledgeBankLinks = route({
  operationId: 'checkKnowledgeBankLinks',
  method: 'POST',
  path: '/knowledge-bank/links/check',
  handler: 'functions/knowledge-bank/request-link-check.ts',
  summary: "Check this workspace's external links now",
  description:
    'Queues a check of every external link of the workspace (besides the daily one) and answers at once; results appear in ' +
    '`GET /knowledge-bank/links` as the checker records them, usually within a minute.',
  permissions: ['knowledge-bank:write'],
  request: { query: noQuery },
  response: { status: 202, body: okOnly },
  // The table is read for authorisation only; the check itself is a message on the link-check queue.
});
