/** GET /openapi.json: the document is built from the route manifest (and its recorded examples) on first use, then kept. */

import { apiDocument } from '../../lib/api-document.ts';
import { publicHandler } from '../../lib/platform/http/api-handler.ts';

let document: ReturnType<typeof apiDocument> | undefined;

export const handler = publicHandler(200).handler(async () => {
  document ??= apiDocument();
  return { body: document, headers: { 'Cache-Control': 'public, max-age=300' } };
});
