/** GET /api/v1: what a newcomer (or a crawler of the API) finds first: the name and where the OpenAPI document is. */

import { publicHandler } from '../../lib/platform/http/api-handler.ts';
import { API_TITLE, API_VERSION, OPENAPI_PATH } from '../../lib/platform/openapi.ts';

export const handler = publicHandler(200).handler(async () => ({
  body: { ok: true, data: { name: API_TITLE, version: API_VERSION, openapi: OPENAPI_PATH } },
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
