/** POST /journeys/{journeyId}/versions/{versionId}/publish: diagnose afresh, then publish in one transaction. */

import { publishJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { publishVersion } from '../../lib/journeys/version-content.ts';
import { BadRequestError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function publishJourneyVersion({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const outcome = await publishVersion(auth.workspace.slug, params.journeyId, params.versionId, precondition);
  if (!outcome.ok) {
    const errors = outcome.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
    throw new BadRequestError(
      'invalid_content',
      `The version has ${errors} error diagnostic${errors === 1 ? '' : 's'}; fix them and save before publishing`,
      undefined,
      { diagnostics: outcome.diagnostics },
    );
  }
  const { version, journey } = outcome;
  return { body: { ok: true, version, journey }, headers: { ETag: etagOf(version.revision) } };
}

export const handler = apiHandler(route).handler(publishJourneyVersion);
