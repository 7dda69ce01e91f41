/** GET /openapi.json: the OpenAPI document, as the build rendered it. */
import { getOpenApi } from '../../lib/introduction/commands/get-openapi.ts';
import { publicHandler } from '../../lib/platform/http/public-handler.ts';

export const handler = publicHandler(200).handler(async () => ({
  body: await getOpenApi(),
  contentType: 'application/json; charset=utf-8',
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
