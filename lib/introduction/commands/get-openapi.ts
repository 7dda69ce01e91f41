/**
 * GET /openapi.json: the document is rendered at build time from the route manifest and its
 * recorded examples (scripts/write-openapi.ts: CDK writes it beside this function's bundle, the
 * sandbox at start), so the function ships one JSON file and none of the schemas or the generator.
 */
import { config } from '../../platform/config.ts';
import { builtFile } from '../built-file.ts';

export const getOpenApi = builtFile(config.openApiDocumentFile);
