/** GET one revision with its blocks, for a key that may see the article (one BatchGet). */
import type { AuthContext } from '../../platform/auth/context.ts';
import { visibleTo } from '../access.ts';
import { revisionNotFound } from '../errors.ts';
import { toRevision } from '../record.ts';
import type { Revision } from '../schemas.ts';
import { findRevision } from '../store/revisions.ts';

export async function getRevision(caller: AuthContext, articleId: string, revision: number): Promise<Revision> {
  const found = await findRevision(caller.workspace.slug, articleId, revision);
  const meta = visibleTo(caller, found?.meta);
  if (!found?.revision) throw revisionNotFound(articleId, revision);
  return toRevision(found.revision, meta.sourceLanguage);
}
