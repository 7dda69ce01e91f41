/**
 * GET /docs: the API reference page. It is rendered at build time (scripts/build-docs.ts: CDK
 * bundles it beside this function, the sandbox renders it at start), so the function carries one
 * static file and none of the renderer: Redoc's renderer is megabytes, the page is read once per
 * cold start and served as is.
 */
import { config } from '../../platform/config.ts';
import { builtFile } from '../built-file.ts';

export const getApiReference = builtFile(config.apiReferenceFile);
