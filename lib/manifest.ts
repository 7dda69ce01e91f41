/**
 * The route manifest: every operation of the API, once. The CDK stack makes a function and an API
 * route of each entry, the local sandbox serves them, the OpenAPI document describes them and the
 * tests walk them. An area adds its routes by exporting them from its own file and listing them here.
 */
import * as ideas from './ideas/routes.ts';
import * as introduction from './introduction/routes.ts';
import * as journeys from './journeys/routes.ts';
import * as knowledgeBank from './knowledge-bank/routes.ts';
import * as knowledgeBankSearch from './knowledge-bank/search/routes.ts';
import * as mcp from './mcp/routes.ts';
import type { RouteDefinition } from './platform/route.ts';
import * as sops from './sops/routes.ts';
import * as surveyExports from './surveys/exports/routes.ts';
import * as surveyResponses from './surveys/responses/routes.ts';
import * as surveys from './surveys/routes.ts';
import * as surveySummary from './surveys/summary/routes.ts';
import * as webhooks from './webhooks/routes.ts';

export { API_PREFIX } from './platform/route.ts';

/** Answers every request no route matches (API Gateway's `$default` route). */
export const NOT_FOUND_HANDLER = 'functions/system/not-found.ts';

export const routes: readonly RouteDefinition[] = [
  ...Object.values(introduction),
  ...Object.values(ideas),
  ...Object.values(journeys),
  ...Object.values(surveys),
  ...Object.values(surveyResponses),
  ...Object.values(surveySummary),
  ...Object.values(surveyExports),
  ...Object.values(sops),
  ...Object.values(webhooks),
  ...Object.values(knowledgeBank),
  ...Object.values(knowledgeBankSearch),
  ...Object.values(mcp),
];

export type { RouteDefinition } from './platform/route.ts';
