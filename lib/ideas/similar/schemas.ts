/** Schemas of similar ideas: the query of GET /ideas/similar and the match every answer carries. */
import * as z from 'zod/mini';
import { atMostCharacters, named, queryInteger } from '../../platform/schemas.ts';
import { idea } from '../schemas.ts';

/** As long as an idea's title and a good part of its description: longer text only adds noise. */
const MAX_QUERY_CHARACTERS = 1000;

export const similarIdeasQuery = z.strictObject({
  q: z
    .string()
    .check(
      atMostCharacters(MAX_QUERY_CHARACTERS),
      z.refine((value) => value.trim().length > 0, 'must not be blank'),
    )
    .register(z.globalRegistry, {
      maxLength: MAX_QUERY_CHARACTERS,
      description: 'A title, or a title and description (English, Arabic or both)',
    }),
  limit: queryInteger(1, 25, 5),
});

export const similarIdea = named(
  'SimilarIdea',
  z.object({
    idea,
    score: z.number().register(z.globalRegistry, {
      description: 'Cosine similarity of the stemmed terms, weighted by rarity: 1 is the same words, 0 none shared',
    }),
    matchedTerms: z.array(z.string()).register(z.globalRegistry, {
      description: "The text's words (lower case) the idea shares, by stem",
    }),
  }),
);
export type SimilarIdea = z.output<typeof similarIdea>;
