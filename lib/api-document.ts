/**
 * The API's OpenAPI document: the manifest's routes, with one real request and response per
 * operation as its examples. The examples (api-examples.json beside this file) are recorded
 * against the sandbox by test/integration/api-examples.test.ts, which fails when they no longer
 * match what the API does, so they cannot drift. Its `webhooks` section is the events the API sends
 * to receivers (lib/webhooks/event-catalog.ts).
 */
import recorded from './api-examples.json' with { type: 'json' };
import { errorCatalog } from './error-codes.ts';
import { routes } from './manifest.ts';
import { type ApiExample, buildOpenApiDocument } from './platform/openapi.ts';
import { webhookCatalog } from './webhooks/event-catalog.ts';

const examples: Readonly<Record<string, ApiExample>> = recorded;

export function apiDocument(): Record<string, unknown> {
  return buildOpenApiDocument(routes, examples, { errors: errorCatalog, webhooks: webhookCatalog });
}
