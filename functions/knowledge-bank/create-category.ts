/** POST /knowledge-bank/categories: create a category; safe to retry with an Idempotency-Key. */
import { createCategory } from '../../lib/knowledge-bank/commands/create-category.ts';
import { createKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import type { Category } from '../../lib/knowledge-bank/schemas.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';

const answer = ({ category, replayed }: { category: Category; replayed: boolean }) => ({
  body: { ok: true as const, category },
  headers: { ETag: etagOf(category.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ body, idempotency, auth }) => answer(await createCategory(auth.workspace.slug, body, idempotency)),
  {
    // The remembered response is the category as first answered.
    replay: (category) => answer({ category: category as Category, replayed: false }),
  },
);
