/**
 * GET /api/v1: what a newcomer (or a crawler of the API) finds first: the name, where the OpenAPI
 * document is, and the reference page a person reads.
 */

import { publicHandler } from '../../lib/platform/http/public-handler.ts';
import { API_REFERENCE_PATH, API_TITLE, API_VERSION, OPENAPI_PATH } from '../../lib/platform/openapi.ts';

export const handler = publicHandler(200).handler(async () => ({
  body: { ok: true, data: { name: API_TITLE, version: API_VERSION, openapi: OPENAPI_PATH, docs: API_REFERENCE_PATH } },
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
