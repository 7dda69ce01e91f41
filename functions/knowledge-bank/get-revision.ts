/** GET /knowledge-bank/articles/{articleId}/revisions/{revision}: one revision with its blocks (one BatchGet). */

import { visibleTo } from '../../lib/knowledge-bank/access.ts';
import { toRevision } from '../../lib/knowledge-bank/record.ts';
import { getKnowledgeBankRevision as route } from '../../lib/knowledge-bank/routes.ts';
import { findRevision as readRevision } from '../../lib/knowledge-bank/store/revisions.ts';
import { NotFoundError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getRevision({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const found = await readRevision(auth.workspace.slug, params.articleId, params.revision);
  const meta = visibleTo(auth, found?.meta);
  if (!found?.revision) throw new NotFoundError('not_found', `Article ${params.articleId} has no revision ${params.revision}`);
  return { body: { ok: true, revision: toRevision(found.revision, meta.sourceLanguage) } };
}

export const handler = apiHandler(route).handler(getRevision);
