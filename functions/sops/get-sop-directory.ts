/** GET /sops/directory: the people and teams an SOP can reference. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getSopDirectory } from '../../lib/sops/commands/get-sop-directory.ts';
import { getSopDirectory as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => {
  const { people, teams } = await getSopDirectory(auth.workspace.slug);
  return { body: { ok: true, people, teams } };
});
