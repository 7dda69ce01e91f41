/**
 * Routes of People (no module: every workspace has them): what the API does for a person across
 * areas. Today one operation, the erasure of a person's data (issue 39), which covers every area that
 * keeps personal data; `POST /surveys/responses/erase` stays as the survey responses' part alone.
 */
import * as z from 'zod/mini';
import { okBody, routesOf } from '../platform/route.ts';
import { named } from '../platform/schemas.ts';

const route = routesOf({ tag: 'People', module: null, functions: 'functions/people' });

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

export const erasePerson = route({
  operationId: 'erasePerson',
  method: 'POST',
  path: '/people/erase',
  summary: "Erase a person's data, in every area",
  description:
    'Right to erasure, in one operation: deletes the survey responses, idea votes and idea comments of the person named by ' +
    '`externalId` and/or `email`, and removes them from the ideas they submitted (which stay, anonymised). Counts stay exact: each ' +
    'idea counts one voter fewer. At most 1,000 records per call: while `hasMore` is true, call again. People are found through ' +
    'keyed hashes of the identifiers, never by the identifiers themselves. Needs both permissions of what it erases.',
  permissions: ['ideas:delete', 'survey-responses:delete'],
  request: { body: personIdentifiers },
  response: { status: 200, body: okBody({ erased, hasMore: z.boolean() }) },
  table: ['Query', 'GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  needs: ['keyed-hash'],
  timeoutSeconds: 60,
});
