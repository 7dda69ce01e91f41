/** GET /openapi.json: the document is built from the route manifest on first use, then kept. */

import { routes } from '../../lib/manifest.ts';
import { publicHandler } from '../../lib/platform/http/api-handler.ts';
import { buildOpenApiDocument } from '../../lib/platform/openapi.ts';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const handler = publicHandler(200).handler(async () => {
  document ??= buildOpenApiDocument(routes);
  return { body: document, headers: { 'Cache-Control': 'public, max-age=300' } };
});
