/**
 * Routes of People (no module: every workspace has them): what the API does for a person across
 * areas. Today one operation, the erasure of a person's data (issue 39), which covers every area that
 * keeps personal data; `POST /surveys/responses/erase` stays as the survey responses' part alone.
 */
import * as z from 'zod/mini';
import { okBody, routesOf } from '../platform/route.ts';
import { erased, personIdentifiers } from './schemas.ts';

const route = routesOf({ tag: 'People', module: null, functions: 'functions/people' });

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
