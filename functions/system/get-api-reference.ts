/**
 * GET /docs: the API reference page. It is rendered at build time (scripts/build-docs.ts: CDK
 * bundles it beside this function, the sandbox renders it at start), so the function carries one
 * static file and none of the renderer: Redoc's renderer is megabytes, the page is read once per
 * cold start and served as is.
 */
import { readFile } from 'node:fs/promises';
import { config } from '../../lib/platform/config.ts';
import { publicHandler } from '../../lib/platform/http/public-handler.ts';

let page: Promise<string> | undefined;

export const handler = publicHandler(200).handler(async () => {
  page ??= readFile(config.apiReferenceFile(), 'utf8').catch((error: unknown) => {
    page = undefined;
    throw error;
  });
  return { body: await page, contentType: 'text/html; charset=utf-8', headers: { 'Cache-Control': 'public, max-age=300' } };
});
