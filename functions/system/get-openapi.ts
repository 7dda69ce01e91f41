/**
 * GET /openapi.json: the document is rendered at build time from the route manifest and its
 * recorded examples (scripts/write-openapi.ts: CDK writes it beside this function's bundle, the
 * sandbox at start), so the function ships one JSON file and none of the schemas or the generator.
 */
import { readFile } from 'node:fs/promises';
import { config } from '../../lib/platform/config.ts';
import { publicHandler } from '../../lib/platform/http/public-handler.ts';

let document: Promise<string> | undefined;

export const handler = publicHandler(200).handler(async () => {
  document ??= readFile(config.openApiDocumentFile(), 'utf8').catch((error: unknown) => {
    document = undefined;
    throw error;
  });
  return { body: await document, contentType: 'application/json; charset=utf-8', headers: { 'Cache-Control': 'public, max-age=300' } };
});
