/** GET /ideas/labels: the statuses and modules ideas of this workspace may take. */
import { getIdeaLabels as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

// The authorize middleware has just read the workspace item, labels included: no command, no further read.
export const handler = apiHandler(route).handler(async ({ auth }) => {
  const { statuses, modules } = auth.workspace.ideaLabels;
  return { body: { ok: true, data: { statuses, modules } } };
});
