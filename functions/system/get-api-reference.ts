/** GET /docs: the API reference page, as the build rendered it. */
import { getApiReference } from '../../lib/introduction/commands/get-api-reference.ts';
import { publicHandler } from '../../lib/platform/http/public-handler.ts';

export const handler = publicHandler(200).handler(async () => ({
  body: await getApiReference(),
  contentType: 'text/html; charset=utf-8',
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
