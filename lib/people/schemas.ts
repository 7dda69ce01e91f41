/** Schemas of People: how a request names a person (either identifier, or both), and what an erasure answers. */
import * as z from 'zod/mini';
import { named } from '../platform/schemas.ts';

const email = z.email().check(z.maxLength(254)).register(z.globalRegistry, { description: 'The e-mail, compared lower-cased' });
const externalId = z
  .string()
  .check(z.minLength(1), z.maxLength(200))
  .register(z.globalRegistry, { description: 'Their id in your system' });

export const personIdentifiers = named(
  'PersonIdentifiers',
  z
    .strictObject({ externalId: z.optional(externalId), email: z.optional(email) })
    .check(
      z.refine((who) => who.externalId !== undefined || who.email !== undefined, {
        message: 'name the person by `externalId`, `email` or both',
      }),
    )
    .register(z.globalRegistry, {
      description: 'The person, by either identifier or both: records under either are erased (give both when you know both)',
    }),
);

export const erased = named(
  'ErasedRecords',
  z.object({
    surveyResponses: z.int().register(z.globalRegistry, { description: 'Survey responses deleted' }),
    ideaVotes: z.int().register(z.globalRegistry, { description: 'Votes deleted (each idea counts one voter fewer)' }),
    ideaComments: z.int().register(z.globalRegistry, { description: 'Comments deleted' }),
    ideas: z.int().register(z.globalRegistry, {
      description: 'Ideas they submitted, kept but anonymised: their submitter and customer context removed',
    }),
  }),
);
export type PersonIdentifiers = z.output<typeof personIdentifiers>;
export type Erased = z.output<typeof erased>;
