/** GET /openapi.json: the document is built from the route manifest on first use, then kept. */
import { publicHandler } from '../../lib/http/api-handler.ts';
import { buildOpenApiDocument } from '../../lib/openapi.ts';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const handler = publicHandler(200).handler(async () => {
  document ??= buildOpenApiDocument();
  return { body: document, headers: { 'Cache-Control': 'public, max-age=300' } };
});
