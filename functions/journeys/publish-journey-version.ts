/** POST /journeys/{journeyId}/versions/{versionId}/publish: diagnose afresh, then publish in one transaction. */
import { publishJourneyVersion } from '../../lib/journeys/commands/publish-journey-version.ts';
import { publishJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  const { version, journey } = await publishJourneyVersion(auth.workspace.slug, params.journeyId, params.versionId, precondition);
  return { body: { ok: true, version, journey }, headers: { ETag: etagOf(version.revision) } };
});
