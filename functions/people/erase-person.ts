/** POST /people/erase: up to 1,000 records of each kind of one person erased, in every area. */
import { erasePerson } from '../../lib/people/commands/erase-person.ts';
import { erasePerson as route } from '../../lib/people/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ body, auth }) => {
  const { erased, hasMore } = await erasePerson(auth.workspace.slug, body);
  return { body: { ok: true, erased, hasMore } };
});
