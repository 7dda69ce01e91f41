/** Schemas of knowledge-bank search and link checking. Lengths are characters. */
import * as z from 'zod/mini';
import { pageQueryShape, pagination, queryInteger, timestamp } from '../../platform/schemas.ts';

const SEARCH_LIMITS = { query: 200, limit: 50, defaultLimit: 10 } as const;

const characters = (value: string) => [...value].length;

export const searchQuery = z.strictObject({
  q: z
    .string()
    .check(
      z.refine((value) => value.trim().length > 0, 'must not be blank'),
      z.refine((value) => characters(value) <= SEARCH_LIMITS.query, `must be at most ${SEARCH_LIMITS.query} characters`),
    )
    .register(z.globalRegistry, {
      description:
        'The words to find, in English or Arabic: every word must match (the last one also as a prefix); words of 5+ letters ' +
        'tolerate one typo. Arabic is matched without diacritics, tatweel or alef/yaa/taa-marbuta variants, and by light stem ' +
        '(with or without the definite article); English by stem.',
      minLength: 1,
      maxLength: SEARCH_LIMITS.query,
    }),
  locale: z.optional(
    z.enum(['en', 'ar']).register(z.globalRegistry, {
      description: 'Search only this language (default: both); titles and snippets come back in it',
    }),
  ),
  limit: queryInteger(1, SEARCH_LIMITS.limit, SEARCH_LIMITS.defaultLimit),
  categoryId: z.optional(z.uuid()),
  visibility: z.optional(z.enum(['public', 'internal'])),
});

const searchResult = z.object({
  articleId: z.uuid(),
  slug: z.string(),
  title: z.string(),
  categoryId: z.uuid(),
  score: z
    .number()
    .register(z.globalRegistry, { description: 'Relevance (BM25 with field boosts); higher is better, comparable within one response' }),
  snippet: z.object({
    text: z.string(),
    highlights: z.array(z.tuple([z.int(), z.int()])).register(z.globalRegistry, {
      description: '[start, end) offsets into `text` (JavaScript string indices) of each matching word',
    }),
  }),
});

export const searchResponse = z.object({
  ok: z.literal(true),
  results: z.array(searchResult),
  total: z.int().register(z.globalRegistry, { description: 'How many articles match in all' }),
});

const LINK_STATUSES = ['ok', 'broken', 'redirected', 'unchecked'] as const;

export const linkListQuery = z.strictObject({
  ...pageQueryShape,
  status: z.optional(z.enum(LINK_STATUSES)),
});

const externalLink = z.object({
  url: z.string(),
  status: z.enum(LINK_STATUSES),
  httpStatus: z.nullable(z.int()),
  redirectTo: z.nullable(z.string()),
  checkedAt: z.nullable(timestamp),
  detail: z
    .nullable(z.string())
    .register(z.globalRegistry, { description: 'Why a link is broken when there was no HTTP answer (timeout, DNS, blocked)' }),
  articles: z.array(z.uuid()),
});

export const linkListResponse = z.object({ ok: z.literal(true), links: z.array(externalLink), pagination });
export type ExternalLinkRecord = z.infer<typeof externalLink>;
